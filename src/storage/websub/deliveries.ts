import type { Kysely } from 'kysely';
import type { ClaimedDelivery, DeliveryStore } from '../../domain/websub-ports.js';
import type { Database } from '../schema.js';
import { claimDue } from './claim.js';
import { iso, released, toSubscription } from './rows.js';

/** The delivery outbox (WebSub §7): one row per subscriber with content to receive, claimed per attempt. */
export function createDeliveryStore(db: Kysely<Database>, pg: boolean): DeliveryStore {
  return {
    async claimDueDeliveries(options) {
      const claimed = await claimDue(db, 'websub_deliveries', options, pg);
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

    async deliveriesSucceeded(items) {
      if (items.length === 0) return [];
      // Set-based, three statements for the whole batch (a fan-out completes hundreds at once).
      const byWorker = new Map<string, typeof items>();
      for (const item of items) byWorker.set(item.worker, [...(byWorker.get(item.worker) ?? []), item]);
      await db.transaction().execute(async (trx) => {
        for (const [worker, mine] of byWorker) {
          const ids = mine.map((i) => i.delivery.subscription.id);
          // Done only when the content sent is still the newest (its generation did not move).
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
            .set({ ...released(iso(Math.max(...mine.map((i) => i.now)))), attempts: 0 })
            .where('subscription_id', 'in', ids)
            .where('claimed_by', '=', worker)
            .execute();
          // A 2xx resets the failure count (contract §6).
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
          .set(released(iso(retryAt(failures))))
          .where('subscription_id', '=', id)
          .where('claimed_by', '=', worker)
          .execute();
        return { failures, removed: false };
      });
    },

    async releaseDelivery(delivery, worker, dueAt) {
      await db
        .updateTable('websub_deliveries')
        .set(released(iso(dueAt)))
        .where('subscription_id', '=', delivery.subscription.id)
        .where('claimed_by', '=', worker)
        .execute();
    },
  };
}
