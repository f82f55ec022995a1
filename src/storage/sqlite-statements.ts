import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Distinct statements kept prepared; past it the least recently used is dropped (and finalized by GC).
 * On Node 24 and later none is dropped: better-sqlite3 12 (the last major that loads on Node 20) aborts
 * the process when V8 collects one of its statement objects outside a JavaScript context, as its idle
 * and concurrent collections do ("Assertion failed: (env) != nullptr" in
 * node::RemoveEnvironmentCleanupHook, from Statement::~Statement; fixed in better-sqlite3 13, which
 * needs Node 22). So there every statement lives as long as its connection: one per distinct SQL text,
 * which Kysely keeps few (an `in` list adds one per length it is used with).
 */
export const STATEMENTS_KEPT = Number(process.versions.node.split('.')[0]) >= 24 ? Infinity : 256;

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
        statement = native.prepare(sql);
        if (statements.size >= kept) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
