import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct statements kept prepared; past it the least recently used is dropped (and finalized by GC). */
export const STATEMENTS_KEPT = 256;

/**
 * better-sqlite3 12 (the last major that loads on Node 20), built for Node 24, aborts the process when
 * V8 collects one of its database or statement objects outside a JavaScript context, as idle and
 * concurrent collections do ("Assertion failed: (env) != nullptr" in node::RemoveEnvironmentCleanupHook,
 * from Statement::~Statement or Database::~Database; fixed in better-sqlite3 13, which needs Node 22).
 * Objects still referenced when the process ends are deleted by Node's environment cleanup instead,
 * safely. So on Node 24 and later every such object is kept referenced for the life of the process:
 * a database handle per open, a statement per distinct SQL text of a connection (Kysely keeps texts
 * few; an `in` list adds one per length it is used with). Not a cache: nothing is ever read back.
 */
const RETAINED: object[] | null = Number(process.versions.node.split('.')[0]) >= 24 ? [] : null;

/** Keeps a better-sqlite3 object from the collector where that would abort the process (see RETAINED). */
export function retainNative<T extends object>(native: T): T {
  RETAINED?.push(native);
  return native;
}

/**
 * The database as Kysely's SQLite driver uses it, with each SQL text prepared once: the driver calls
 * `prepare` for every query, and better-sqlite3 compiles a statement anew on each call (no cache of its
 * own; Kysely has none either), which cost more than running it: an MCP session's lookup by id, done
 * on every session request, took 77 µs prepared each time and 28 µs prepared once (on the
 * loaded bench machine). A statement is safe to reuse: better-sqlite3 resets it after each run, and the
 * driver runs one query at a time on its single connection. Texts vary little (Kysely compiles the
 * same query to the same SQL); those that do (an `in` list per length) are bounded by STATEMENTS_KEPT.
 */
export function withPreparedStatements(native: SqliteDatabase.Database, kept = STATEMENTS_KEPT): KyselySqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => native.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last, so the first key is the one to drop.
        statements.delete(sql);
      } else {
        statement = retainNative(native.prepare(sql));
        if (statements.size >= kept) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
