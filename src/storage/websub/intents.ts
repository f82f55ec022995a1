import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Intent, IntentOutcome, IntentStore } from '../../domain/websub-ports.js';
import type { Database } from '../schema.js';
import { claimDue } from './claim.js';
import { DUE_AT_ONCE, iso, released, toIntent } from './rows.js';

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

/** Pending verifications of intent (WebSub §5.3): stored before the 202, claimed, then completed. */
export function createIntentStore(db: Kysely<Database>, pg: boolean): IntentStore {
  return {
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

    async claimDueIntents(options) {
      return (await claimDue(db, 'websub_intents', options, pg)).map(toIntent);
    },

    async completeIntents(items) {
      return db.transaction().execute(async (trx) => {
        const results: boolean[] = [];
        for (const { intent, outcome } of items) results.push(await completeIntentIn(trx, intent, outcome));
        return results;
      });
    },

    async releaseIntent(id, worker) {
      await db.updateTable('websub_intents').set(released(DUE_AT_ONCE)).where('id', '=', id).where('claimed_by', '=', worker).execute();
    },
  };
}
