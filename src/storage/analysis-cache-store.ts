import type { Kysely } from 'kysely';
import type { AnalysisCacheStore } from '../domain/ports.js';
import type { Database } from './schema.js';

// Keys per statement: far below every driver's bound-parameter limit, and one page of a 100k read.
const BATCH = 500;

/**
 * The per-review analysis cache (migration 0007) over Kysely: the same statements on both databases.
 * Small statements, never a transaction spanning pages, and no change to the data counter: on SQLite a
 * write waits for an import's lock without blocking the event loop (connect.ts).
 */
export function createAnalysisCacheStore(db: Kysely<Database>): AnalysisCacheStore {
  return {
    async read(keys) {
      const out: Array<{ key: string; body: string }> = [];
      for (let i = 0; i < keys.length; i += BATCH) {
        const rows = await db
          .selectFrom('review_analyses')
          .select(['key', 'body'])
          .where('key', 'in', keys.slice(i, i + BATCH))
          .execute();
        out.push(...rows);
      }
      return out;
    },

    async write(engine, analyses) {
      // Another engine's analyses can never be read again (their keys hold its fingerprint).
      await db.deleteFrom('review_analyses').where('engine', '!=', engine).execute();
      for (let i = 0; i < analyses.length; i += BATCH) {
        const rows = analyses.slice(i, i + BATCH).map((a) => ({ key: a.key, engine, body: a.body }));
        await db
          .insertInto('review_analyses')
          .values(rows)
          .onConflict((oc) => oc.column('key').doNothing())
          .execute();
      }
    },
  };
}
