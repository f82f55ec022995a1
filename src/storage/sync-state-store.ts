import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { SyncSource, SyncStateStore, SyncStatus } from '../domain/sync-ports.js';
import type { Database } from './schema.js';

const iso = (d: Date) => d.toISOString();
const date = (s: string | null) => (s === null ? null : new Date(s));

/**
 * The sync port over Kysely (migration 0010). Claims are one statement each, decided atomically by
 * either database as the render and WebSub claims are; ISO timestamps of one width compare as text.
 */
export function createSyncStateStore(db: Kysely<Database>): SyncStateStore {
  const dbNow =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<string>`to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  return {
    async clock() {
      const r = await sql<{ now: string }>`select ${dbNow} as now`.execute(db);
      return new Date(r.rows[0]!.now);
    },

    async claim({ source, holder, now, leaseMs, notStartedWithinMs }) {
      const until = iso(new Date(now.getTime() + leaseMs));
      const won = await db
        .insertInto('sync_state')
        .values({ source, holder, claim_expires_at: until, last_started_at: iso(now) })
        .onConflict((oc) =>
          oc
            .column('source')
            .doUpdateSet({ holder, claim_expires_at: until, last_started_at: iso(now), last_outcome: null, last_message: null })
            .where((eb) => {
              // Free when nobody holds it or the holder's claim lapsed; never re-taken by its own holder,
              // whose run in progress would be released by the second run's end.
              const free = eb.or([eb('sync_state.holder', 'is', null), eb('sync_state.claim_expires_at', '<', iso(now))]);
              if (notStartedWithinMs === undefined) return free;
              const since = iso(new Date(now.getTime() - notStartedWithinMs));
              return eb.and([free, eb.or([eb('sync_state.last_started_at', 'is', null), eb('sync_state.last_started_at', '<=', since)])]);
            }),
        )
        .returning('holder')
        .executeTakeFirst();
      return won?.holder === holder;
    },

    async renew(source, holder, now, leaseMs) {
      const r = await db
        .updateTable('sync_state')
        .set({ claim_expires_at: iso(new Date(now.getTime() + leaseMs)) })
        .where('source', '=', source)
        .where('holder', '=', holder)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async finish(source, holder, run) {
      await db
        .updateTable('sync_state')
        .set({
          holder: null,
          claim_expires_at: null,
          last_finished_at: iso(run.at),
          last_outcome: run.outcome,
          last_message: run.message,
          ...(run.outcome === 'success' ? { last_success_at: iso(run.at) } : {}),
        })
        .where('source', '=', source)
        .where('holder', '=', holder)
        .execute();
    },

    async status(source): Promise<SyncStatus | null> {
      const r = await db.selectFrom('sync_state').selectAll().where('source', '=', source).executeTakeFirst();
      if (!r) return null;
      return {
        holder: r.holder,
        claimExpiresAt: date(r.claim_expires_at),
        lastStartedAt: date(r.last_started_at),
        lastSuccessAt: date(r.last_success_at),
        lastOutcome: r.last_outcome,
        lastMessage: r.last_message,
      };
    },

    async lastSuccesses() {
      const rows = await db
        .selectFrom('sync_state')
        .select(['source', 'last_success_at'])
        .where('last_success_at', 'is not', null)
        .execute();
      return Object.fromEntries(rows.map((r) => [r.source as SyncSource, new Date(r.last_success_at!)]));
    },

    async refreshToken(source) {
      const r = await db.selectFrom('sync_credentials').select('refresh_token').where('source', '=', source).executeTakeFirst();
      return r?.refresh_token ?? null;
    },

    async storeRefreshToken(source, token, now) {
      await db
        .insertInto('sync_credentials')
        .values({ source, refresh_token: token, updated_at: iso(now) })
        .onConflict((oc) => oc.column('source').doUpdateSet({ refresh_token: token, updated_at: iso(now) }))
        .execute();
    },
  };
}
