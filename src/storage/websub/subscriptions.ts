import type { Kysely } from 'kysely';
import type { SubscriptionStore } from '../../domain/websub-ports.js';
import type { Database } from '../schema.js';
import { DUE_AT_ONCE, iso, ms, released, toSubscription } from './rows.js';

/** Verified subscriptions: removal (with their pending delivery), expiry, the operator's listing. */
export function createSubscriptionStore(db: Kysely<Database>): SubscriptionStore {
  return {
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

    async releaseClaims(worker) {
      await db.updateTable('websub_deliveries').set(released(DUE_AT_ONCE)).where('claimed_by', '=', worker).execute();
      await db.updateTable('websub_intents').set(released(DUE_AT_ONCE)).where('claimed_by', '=', worker).execute();
    },
  };
}
