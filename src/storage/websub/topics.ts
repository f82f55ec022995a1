import { sql, type Kysely } from 'kysely';
import type { TopicStore } from '../../domain/websub-ports.js';
import type { Database } from '../schema.js';
import { iso } from './rows.js';

/** Each topic's last published content hash, and the outbox it feeds (WebSub §7). */
export function createTopicStore(db: Kysely<Database>): TopicStore {
  return {
    async topic(topic) {
      const row = await db.selectFrom('websub_topics').selectAll().where('topic', '=', topic).executeTakeFirst();
      return row ? { topic: row.topic, contentHash: row.content_hash, sourceVersion: Number(row.source_version) } : null;
    },

    async recordTopic({ topic, contentHash, sourceVersion }, now) {
      const at = iso(now);
      return db.transaction().execute(async (trx) => {
        // Compare-and-set: replicas that build the same snapshot race here and exactly one moves the
        // hash; a replica still on older data (a lower version) never moves it back.
        const moved = await trx
          .updateTable('websub_topics')
          .set({ content_hash: contentHash, source_version: sourceVersion, updated_at: at })
          .where('topic', '=', topic)
          .where('content_hash', '<>', contentHash)
          .where('source_version', '<=', sourceVersion)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) {
          const inserted = await trx
            .insertInto('websub_topics')
            .values({ topic, content_hash: contentHash, source_version: sourceVersion, updated_at: at })
            .onConflict((oc) => oc.column('topic').doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
        }
        // The outbox: one row per active subscriber. A row already pending (maybe in flight) only gets
        // a new generation, so it will carry the newest content and the subscriber gets one POST.
        const enqueued = await trx
          .insertInto('websub_deliveries')
          .columns(['subscription_id', 'generation', 'attempts', 'due_at', 'created_at'])
          .expression((eb) =>
            eb
              .selectFrom('websub_subscriptions')
              .select([
                'id',
                sql.lit(1).as('generation'),
                sql.lit(0).as('attempts'),
                sql.val(at).as('due_at'),
                sql.val(at).as('created_at'),
              ])
              .where('topic', '=', topic)
              .where('expires_at', '>', at),
          )
          .onConflict((oc) =>
            oc.column('subscription_id').doUpdateSet((eb) => ({ generation: eb('websub_deliveries.generation', '+', 1) })),
          )
          .executeTakeFirst();
        return Number(enqueued.numInsertedOrUpdatedRows ?? 0);
      });
    },
  };
}
