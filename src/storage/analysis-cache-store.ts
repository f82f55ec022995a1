import type { Kysely } from 'kysely';
import type { AnalysisCacheStore } from '../domain/ports.js';
import type { Database } from './schema.js';

// Rows per statement: far below every driver's bound-parameter limit, and a few milliseconds of work.
const BATCH = 200;

/**
 * Lets requests run between statements. better-sqlite3 runs each statement synchronously and an awaited
 * statement resumes as a microtask, so 100k analyses (about 80 MB, 500 statements) read or written back
 * to back would hold the event loop for seconds.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The per-review analysis cache (migration 0007) over Kysely: the same statements on both databases.
 * Small statements, never a transaction spanning pages, and no change to the data counter: on SQLite a
 * write waits for an import's lock without blocking the event loop (connect.ts).
 */
export function createAnalysisCacheStore(db: Kysely<Database>): AnalysisCacheStore {
  // The engine whose predecessors' rows this process has removed: once per engine and process, since
  // `engine <> ?` cannot use the index and would scan the table with every write.
  let cleared: string | null = null;

  /** Removes every other engine's rows, a batch per statement, letting requests run in between. */
  async function clearOthers(engine: string): Promise<void> {
    for (;;) {
      const stale = db.selectFrom('review_analyses').select('key').where('engine', '<>', engine).limit(BATCH);
      const { numDeletedRows } = await db.deleteFrom('review_analyses').where('key', 'in', stale).executeTakeFirst();
      await turn();
      if (Number(numDeletedRows) < BATCH) return;
    }
  }

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
        await turn();
      }
      return out;
    },

    async write(engine, analyses) {
      // Another engine's analyses can never be read again (their keys hold its fingerprint).
      if (cleared !== engine) {
        await clearOthers(engine);
        cleared = engine;
      }
      for (let i = 0; i < analyses.length; i += BATCH) {
        const rows = analyses.slice(i, i + BATCH).map((a) => ({ key: a.key, engine, body: a.body }));
        await db
          .insertInto('review_analyses')
          .values(rows)
          .onConflict((oc) => oc.column('key').doNothing())
          .execute();
        await turn();
      }
    },
  };
}
