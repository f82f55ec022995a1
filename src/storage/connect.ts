import { Kysely, Migrator, PostgresDialect } from 'kysely';
import { DatabaseOpenError, type DatabaseHandle, type OpenOptions } from './database-handle.js';
import { migrationProvider } from './migrations/index.js';
import { installChangeNotify } from './postgres/change-notify.js';
import type { Database } from './schema.js';
import { openSqlite, sqliteFileFault } from './sqlite-database.js';

export type { DatabaseHandle, DialectName, OpenOptions } from './database-handle.js';

/** `sqlite:./data/reviews.db`, `sqlite::memory:`, `sqlite:/abs/path.db`, or `postgres://…` (contract §1). */
export function parseDatabaseUrl(url: string): { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string } {
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', url };
  const m = /^sqlite:(?:\/\/)?(.+)$/i.exec(url);
  if (m?.[1]) return { dialect: 'sqlite', file: m[1] };
  throw new DatabaseOpenError(
    `DATABASE_URL must start with sqlite: or postgres:// (got "${url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}")`,
  );
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  // Loaded only in PostgreSQL mode: a SQLite server never needs the driver (start-up time).
  const { default: pg } = await import('pg');
  // connectionTimeoutMillis: during a PostgreSQL outage a query fails within seconds (the snapshot keeps
  // serving the last good data) instead of queueing forever; keepAlive notices a silently dead peer.
  const pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5000, keepAlive: true });
  // An idle client that loses its connection (a PostgreSQL restart) emits 'error' on the pool; without
  // a listener that would crash the process. The pool replaces the client on the next query.
  pool.on('error', () => {});
  // A client checked out of the pool (between a transaction's statements, say) that loses its
  // connection emits 'error' on itself, and the pool's listener does not cover it: an unhandled
  // 'error' would end the process (node-postgres docs, "error handling"). The statement in flight
  // still fails with the error, and the pool discards the client.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const safe = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  return { db, dialect: 'postgres', describe: safe, close: () => db.destroy(), readingAll: (work) => work() };
}

/** Opens the database named by DATABASE_URL and brings its schema up to date. */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<DatabaseHandle> {
  const parsed = parseDatabaseUrl(url);
  const handle = parsed.dialect === 'sqlite' ? openSqlite(parsed.file, options) : await openPostgres(parsed.url);
  try {
    await migrate(handle.db);
    if (handle.dialect === 'postgres') await installChangeNotify(handle.db);
  } catch (error) {
    await handle.close();
    throw describeOpenFailure(error, handle);
  }
  return handle;
}

/** A failure to reach or prepare the database, as one line naming DATABASE_URL; other errors unchanged. */
function describeOpenFailure(error: unknown, handle: DatabaseHandle): unknown {
  if (error instanceof DatabaseOpenError) return error;
  if (handle.dialect === 'sqlite') {
    const fault = sqliteFileFault(error, handle.describe);
    if (fault) return fault;
  }
  const e = error as Error & { code?: string };
  const code = String(e.code ?? '');
  const connection =
    /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|28P01|28000|3D000|SQLITE_CANTOPEN|SQLITE_READONLY|SQLITE_NOTADB|SQLITE_CORRUPT|SQLITE_PERM|SQLITE_IOERR.*)$/.test(
      code,
    );
  if (!connection && !/timeout|connect/i.test(e.message ?? '')) return error;
  return new DatabaseOpenError(
    `cannot use the database ${handle.describe} (DATABASE_URL): ${e.message || code}; change DATABASE_URL or start the database`,
  );
}

export async function migrate(db: Kysely<Database>): Promise<void> {
  // The migrator takes a lock, so replicas starting together apply each migration once.
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
