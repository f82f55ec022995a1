import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { ClaimedDelivery, HubMode, Intent, IntentOutcome, Subscription, WebSubStore } from '../domain/websub-ports.js';
import type { DialectName } from './connect.js';
import type { Database, WebSubIntentsTable, WebSubSubscriptionsTable } from './schema.js';

// ISO text of the same width sorts like time, so claims and due dates compare as text on both databases.
const iso = (ms: number) => new Date(ms).toISOString();
const ms = (text: string) => Date.parse(text);

function toSubscription(row: Selectable<WebSubSubscriptionsTable>): Subscription {
  return {
    id: row.id,
    topic: row.topic,
    callback: row.callback,
    secret: row.secret,
    leaseSeconds: Number(row.lease_seconds),
    expiresAt: ms(row.expires_at),
    failures: Number(row.failures),
    createdAt: ms(row.created_at),
    updatedAt: ms(row.updated_at),
  };
}

function toIntent(row: Selectable<WebSubIntentsTable>): Intent {
  return {
    id: row.id,
    mode: row.mode as HubMode,
    topic: row.topic,
    requestedTopic: row.requested_topic,
    callback: row.callback,
    secret: row.secret,
    leaseSeconds: Number(row.lease_seconds),
    createdAt: ms(row.created_at),
  };
}

/** A released claim is due at once (the epoch sorts before any real time). */
const DUE_AT_ONCE = new Date(0).toISOString();

/**
 * Free to claim: never claimed, or the claim lapsed (its worker died or hung) and may be taken over.
 * A claim also moves `due_at` to the claim's expiry, so "due" alone finds both kinds through the due_at
 * index, and rows claimed in flight are never scanned by other workers' polls.
 */
const claimable = (now: string) => sql<SqlBool>`(claimed_by is null or claim_expires_at < ${now})`;

/**
 * Ends a claimed intent inside `trx`. Verified: a subscribe replaces the (topic, callback) state, an
 * unsubscribe removes it; not verified: the state stays as it was (WebSub §5.1.2). False when the claim
 * was lost to another worker (its outcome is the one that counts).
 */
async function completeIntentIn(trx: Transaction<Database>, intent: Intent, { verified, worker, now }: IntentOutcome): Promise<boolean> {
  const gone = await trx.deleteFrom('websub_intents').where('id', '=', intent.id).where('claimed_by', '=', worker).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) return false;
  if (!verified) return true;
  if (intent.mode === 'unsubscribe') {
    const old = trx
      .selectFrom('websub_subscriptions')
      .select('id')
      .where('topic', '=', intent.topic)
      .where('callback', '=', intent.callback);
    await trx.deleteFrom('websub_deliveries').where('subscription_id', 'in', old).execute();
    await trx.deleteFrom('websub_subscriptions').where('topic', '=', intent.topic).where('callback', '=', intent.callback).execute();
    return true;
  }
  // WebSub §5.3: the lease runs from the verification request, which is `now` here.
  const row = {
    id: randomUUID(),
    topic: intent.topic,
    callback: intent.callback,
    secret: intent.secret,
    lease_seconds: intent.leaseSeconds,
    expires_at: iso(now + intent.leaseSeconds * 1000),
    failures: 0,
    created_at: iso(now),
    updated_at: iso(now),
  };
  await trx
    .insertInto('websub_subscriptions')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['topic', 'callback']).doUpdateSet({
        secret: row.secret,
        lease_seconds: row.lease_seconds,
        expires_at: row.expires_at,
        failures: 0,
        updated_at: row.updated_at,
      }),
    )
    .execute();
  return true;
}

/** A 2xx: the failure count resets; the delivery is done unless newer content was enqueued meanwhile. */
async function deliverySucceededIn(trx: Transaction<Database>, delivery: ClaimedDelivery, worker: string, now: number): Promise<void> {
  const id = delivery.subscription.id;
  const done = await trx
    .deleteFrom('websub_deliveries')
    .where('subscription_id', '=', id)
    .where('claimed_by', '=', worker)
    .where('generation', '=', delivery.generation)
    .executeTakeFirst();
  if (Number(done.numDeletedRows) === 0) {
    // Newer content was enqueued while this one was in flight: send again, now.
    await trx
      .updateTable('websub_deliveries')
      .set({ claimed_by: null, claim_expires_at: null, attempts: 0, due_at: iso(now) })
      .where('subscription_id', '=', id)
      .where('claimed_by', '=', worker)
      .execute();
  }
  await trx.updateTable('websub_subscriptions').set({ failures: 0 }).where('id', '=', id).where('failures', '<>', 0).execute();
}

/**
 * The hub's port over Kysely, one implementation for SQLite and PostgreSQL. A claim is a conditional
 * UPDATE: the row changes hands only if it is still free when the statement runs, which both databases
 * decide atomically, so one worker wins. Every transaction starts with a write, so a SQLite writer takes
 * its lock up front instead of failing on a read-to-write upgrade.
 */
export function createWebSubStore(db: Kysely<Database>, dialect: DialectName): WebSubStore {
  const pg = dialect === 'postgres';

  return {
    addIntent(intent) {
      return this.addIntents([intent]);
    },

    async addIntents(intents) {
      if (intents.length === 0) return;
      await db
        .insertInto('websub_intents')
        .values(
          intents.map((intent) => ({
            id: intent.id,
            mode: intent.mode,
            topic: intent.topic,
            requested_topic: intent.requestedTopic,
            callback: intent.callback,
            secret: intent.secret,
            lease_seconds: intent.leaseSeconds,
            created_at: iso(intent.createdAt),
            due_at: iso(intent.claim ? Math.max(intent.dueAt, intent.claim.until) : intent.dueAt),
            claimed_by: intent.claim?.worker ?? null,
            claim_expires_at: intent.claim ? iso(intent.claim.until) : null,
          })),
        )
        .execute();
    },

    async claimIntent(id, { worker, now, claimUntil }) {
      const row = await db
        .updateTable('websub_intents')
        .set({ claimed_by: worker, claim_expires_at: iso(claimUntil), due_at: iso(claimUntil) })
        .where('id', '=', id)
        .where(claimable(iso(now)))
        .returningAll()
        .executeTakeFirst();
      return row ? toIntent(row) : null;
    },

    async claimDueIntents({ worker, now, claimUntil, limit }) {
      const at = iso(now);
      const due = db
        .selectFrom('websub_intents')
        .select('id')
        .where('due_at', '<=', at)
        .where(claimable(at))
        .orderBy('due_at')
        .limit(limit)
        // PostgreSQL: skip rows another worker is claiming right now instead of queueing behind it.
        .$if(pg, (q) => q.forUpdate().skipLocked());
      const rows = await db
        .updateTable('websub_intents')
        .set({ claimed_by: worker, claim_expires_at: iso(claimUntil), due_at: iso(claimUntil) })
        .where('id', 'in', due)
        .where(claimable(at))
        .returningAll()
        .execute();
      return rows.map(toIntent);
    },

    async completeIntent(intent, outcome) {
      return db.transaction().execute((trx) => completeIntentIn(trx, intent, outcome));
    },

    async completeIntents(items) {
      return db.transaction().execute(async (trx) => {
        const results: boolean[] = [];
        for (const { intent, outcome } of items) results.push(await completeIntentIn(trx, intent, outcome));
        return results;
      });
    },

    async releaseIntent(id, worker) {
      await db
        .updateTable('websub_intents')
        .set({ claimed_by: null, claim_expires_at: null, due_at: DUE_AT_ONCE })
        .where('id', '=', id)
        .where('claimed_by', '=', worker)
        .execute();
    },

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

    async claimDueDeliveries({ worker, now, claimUntil, limit }) {
      const at = iso(now);
      const due = db
        .selectFrom('websub_deliveries')
        .select('subscription_id')
        .where('due_at', '<=', at)
        .where(claimable(at))
        .orderBy('due_at')
        .limit(limit)
        .$if(pg, (q) => q.forUpdate().skipLocked());
      const claimed = await db
        .updateTable('websub_deliveries')
        .set({ claimed_by: worker, claim_expires_at: iso(claimUntil), due_at: iso(claimUntil) })
        .where('subscription_id', 'in', due)
        .where(claimable(at))
        .returning(['subscription_id', 'generation', 'attempts'])
        .execute();
      if (claimed.length === 0) return [];
      const subs = await db
        .selectFrom('websub_subscriptions')
        .selectAll()
        .where(
          'id',
          'in',
          claimed.map((c) => c.subscription_id),
        )
        .execute();
      const byId = new Map(subs.map((s) => [s.id, toSubscription(s)]));
      const out: ClaimedDelivery[] = [];
      for (const c of claimed) {
        const subscription = byId.get(c.subscription_id);
        if (subscription) out.push({ subscription, generation: Number(c.generation), attempts: Number(c.attempts) });
      }
      return out;
    },

    async deliverySucceeded(delivery, worker, now) {
      await db.transaction().execute((trx) => deliverySucceededIn(trx, delivery, worker, now));
    },

    async deliveriesSucceeded(items) {
      if (items.length === 0) return [];
      // Set-based, three statements for the whole batch (a fan-out completes hundreds at once).
      const byWorker = new Map<string, typeof items>();
      for (const item of items) byWorker.set(item.worker, [...(byWorker.get(item.worker) ?? []), item]);
      await db.transaction().execute(async (trx) => {
        for (const [worker, mine] of byWorker) {
          const ids = mine.map((i) => i.delivery.subscription.id);
          await trx
            .deleteFrom('websub_deliveries')
            .where('claimed_by', '=', worker)
            .where((eb) =>
              eb.or(
                mine.map((i) =>
                  eb.and([eb('subscription_id', '=', i.delivery.subscription.id), eb('generation', '=', i.delivery.generation)]),
                ),
              ),
            )
            .execute();
          // Rows still here got newer content while in flight: send again, now.
          await trx
            .updateTable('websub_deliveries')
            .set({ claimed_by: null, claim_expires_at: null, attempts: 0, due_at: iso(Math.max(...mine.map((i) => i.now))) })
            .where('subscription_id', 'in', ids)
            .where('claimed_by', '=', worker)
            .execute();
          await trx.updateTable('websub_subscriptions').set({ failures: 0 }).where('id', 'in', ids).where('failures', '<>', 0).execute();
        }
      });
      return items.map(() => undefined);
    },

    async deliveryFailed(delivery, { worker, now, maxFailures, retryAt }) {
      const id = delivery.subscription.id;
      return db.transaction().execute(async (trx) => {
        const held = await trx
          .updateTable('websub_deliveries')
          .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
          .where('subscription_id', '=', id)
          .where('claimed_by', '=', worker)
          .executeTakeFirst();
        if (Number(held.numUpdatedRows) === 0) return null;
        const counted = await trx
          .updateTable('websub_subscriptions')
          .set((eb) => ({ failures: eb('failures', '+', 1), updated_at: iso(now) }))
          .where('id', '=', id)
          .returning('failures')
          .executeTakeFirst();
        const failures = Number(counted?.failures ?? maxFailures);
        if (failures >= maxFailures) {
          await trx.deleteFrom('websub_deliveries').where('subscription_id', '=', id).execute();
          await trx.deleteFrom('websub_subscriptions').where('id', '=', id).execute();
          return { failures, removed: true };
        }
        await trx
          .updateTable('websub_deliveries')
          .set({ claimed_by: null, claim_expires_at: null, due_at: iso(retryAt(failures)) })
          .where('subscription_id', '=', id)
          .where('claimed_by', '=', worker)
          .execute();
        return { failures, removed: false };
      });
    },

    async releaseDelivery(delivery, worker, dueAt) {
      await db
        .updateTable('websub_deliveries')
        .set({ claimed_by: null, claim_expires_at: null, due_at: iso(dueAt) })
        .where('subscription_id', '=', delivery.subscription.id)
        .where('claimed_by', '=', worker)
        .execute();
    },

    async releaseClaims(worker) {
      await db
        .updateTable('websub_deliveries')
        .set({ claimed_by: null, claim_expires_at: null, due_at: DUE_AT_ONCE })
        .where('claimed_by', '=', worker)
        .execute();
      await db
        .updateTable('websub_intents')
        .set({ claimed_by: null, claim_expires_at: null, due_at: DUE_AT_ONCE })
        .where('claimed_by', '=', worker)
        .execute();
    },

    async removeSubscription(id) {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('websub_deliveries').where('subscription_id', '=', id).execute();
        const row = await trx.deleteFrom('websub_subscriptions').where('id', '=', id).returningAll().executeTakeFirst();
        return row ? toSubscription(row) : null;
      });
    },

    async removeExpired(now) {
      const at = iso(now);
      return db.transaction().execute(async (trx) => {
        const expired = trx.selectFrom('websub_subscriptions').select('id').where('expires_at', '<=', at);
        await trx.deleteFrom('websub_deliveries').where('subscription_id', 'in', expired).execute();
        const gone = await trx.deleteFrom('websub_subscriptions').where('expires_at', '<=', at).executeTakeFirst();
        return Number(gone.numDeletedRows);
      });
    },

    async listSubscriptions() {
      const rows = await db
        .selectFrom('websub_subscriptions as s')
        .leftJoin('websub_deliveries as d', 'd.subscription_id', 's.id')
        .selectAll('s')
        .select('d.due_at as delivery_due_at')
        .orderBy('s.topic')
        .orderBy('s.created_at')
        .execute();
      return rows.map((r) => ({ ...toSubscription(r), deliveryDueAt: r.delivery_due_at ? ms(r.delivery_due_at) : null }));
    },
  };
}
