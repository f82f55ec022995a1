import type { Kysely } from 'kysely';
import type { MetricSources } from '../ops/metrics.js';
import type { Database } from './schema.js';
import { createSyncStateStore } from './sync-state-store.js';
import type { McpSessionsTable } from './mcp-session-store.js';

type Count = number | string | bigint;

/** Store-side gauges for /metrics (contract §8), counted at scrape time with one query each. */
export function createMetricSources(database: Kysely<Database>, publishedReviews: () => number): MetricSources {
  const db = database.withTables<{ mcp_sessions: McpSessionsTable }>();
  const sync = createSyncStateStore(database);
  return {
    lastSyncSuccesses: () => sync.lastSuccesses(),
    publishedReviews,
    async mcpSessions() {
      const now = new Date().toISOString();
      const r = await db
        .selectFrom('mcp_sessions')
        .select((eb) => eb.fn.countAll<Count>().as('n'))
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async subscriptionsByState() {
      const now = new Date().toISOString();
      const subs = await db
        .selectFrom('websub_subscriptions')
        .select((eb) => [
          eb.fn.countAll<Count>().as('n'),
          eb.fn.sum<Count>(eb.case().when('expires_at', '>', now).then(1).else(0).end()).as('active'),
        ])
        .executeTakeFirst();
      const pending = await db
        .selectFrom('websub_intents')
        .select((eb) => eb.fn.countAll<Count>().as('n'))
        .executeTakeFirst();
      const total = Number(subs?.n ?? 0);
      const active = Number(subs?.active ?? 0);
      return { active, expired: total - active, pending_verification: Number(pending?.n ?? 0) };
    },
    async outboxBacklog() {
      const r = await db
        .selectFrom('websub_deliveries')
        .select((eb) => eb.fn.countAll<Count>().as('n'))
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
  };
}
