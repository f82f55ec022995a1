import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import { migrationProvider } from './migrations/index.js';
import { installChangeNotify } from './postgres/change-notify.js';
import type { Database } from './schema.js';
import { withPreparedStatements } from './sqlite-statements.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The location, for logs: a file path or a URL without its password. */
  describe: string;
  close(): Promise<void>;
  /**
   * Runs `work`, which reads most of the database once (the first snapshot at start-up), the way that
   * costs least: SQLite maps the file into memory for its duration (below); PostgreSQL just runs it.
   */
  readingAll<T>(work: () => Promise<T>): Promise<T>;
  /** SQLite only: a consistent copy of the database while others read and write (the online backup API). */
  backup?(file: string): Promise<void>;
}

/**
 * The database named by DATABASE_URL cannot be used: the message names the setting and the location and
 * says what to change (contract §8: one line, exit status 2).
 */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

export interface OpenOptions {
  /** Create a missing parent directory of a SQLite file (only for the default DATABASE_URL). */
  createDirectory?: boolean;
}

/** `sqlite:./data/reviews.db`, `sqlite::memory:`, `sqlite:/abs/path.db`, or `postgres://…` (contract §1). */
export function parseDatabaseUrl(url: string): { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string } {
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', url };
  const m = /^sqlite:(?:\/\/)?(.+)$/i.exec(url);
  if (m?.[1]) return { dialect: 'sqlite', file: m[1] };
  throw new DatabaseOpenError(
    `DATABASE_URL must start with sqlite: or postgres:// (got "${url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}")`,
  );
}

/**
 * Every SQLite transaction takes the write lock when it begins. A deferred transaction that reads and
 * then writes fails at once with SQLITE_BUSY(_SNAPSHOT) when another process (an `import`) committed in
 * between, whatever the busy timeout; BEGIN IMMEDIATE waits for the lock instead.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  /**
   * Waits for another process's write lock without blocking the event loop (issue 11, M2): SQLite's own
   * busy handler sleeps inside the synchronous better-sqlite3 call, so a server write (a hub claim, a
   * session) queued behind a 50k-review import used to stall every request for up to the busy timeout.
   * Here busy_timeout is 0 and a statement that finds the database locked is retried after an async
   * sleep, within the same overall budget; the connection stays held, so this process's statements keep
   * their order.
   */
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    return {
      executeQuery: (query) => waitForLock(() => connection.executeQuery(query)),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * On SQLITE_FULL, SQLITE_IOERR and a few others SQLite has already rolled the transaction back itself
   * (https://sqlite.org/lang_transaction.html, "Response To Errors Within A Transaction"); a second
   * ROLLBACK then fails with "no transaction is active" and would hide the real cause (issue 11: a full
   * disk reported as "cannot rollback"). That failure is dropped so the original error surfaces.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (e) {
      if (!/no transaction is active/i.test((e as Error).message)) throw e;
    }
  }
}

/** How long a statement waits for another process's lock before failing with SQLITE_BUSY. */
export const SQLITE_LOCK_WAIT_MS = 10_000;

function isLocked(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY' || code === 'SQLITE_LOCKED';
}

/** Runs `statement`, retrying while the database is locked, sleeping between tries (5 ms growing to 50 ms). */
export async function waitForLock<T>(statement: () => Promise<T>, budgetMs = SQLITE_LOCK_WAIT_MS): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
    try {
      return await statement();
    } catch (e) {
      if (!isLocked(e) || Date.now() + pause > deadline) throw e;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly options: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(options);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.options);
  }
}

function openNative(file: string, options: OpenOptions): SqliteDatabase.Database {
  if (file === ':memory:') return new SqliteDatabase(file);
  const dir = path.dirname(path.resolve(file));
  // A typo in DATABASE_URL must not quietly start an empty database somewhere new (issue 11).
  if (!fs.existsSync(dir)) {
    if (!options.createDirectory) {
      throw new DatabaseOpenError(`DATABASE_URL names ${file}, but the directory ${dir} does not exist: create it or change DATABASE_URL`);
    }
    fs.mkdirSync(dir, { recursive: true });
  }
  try {
    return new SqliteDatabase(file);
  } catch (e) {
    const reason = (e as Error).message;
    throw new DatabaseOpenError(
      `cannot open the SQLite database ${path.resolve(file)} (DATABASE_URL): ${reason}; change DATABASE_URL or fix the path's permissions`,
    );
  }
}

/** Larger than any database this service holds (100,000 reviews are about 330 MB); SQLite caps it at 2 GB. */
const READ_ALL_MMAP_BYTES = 1 << 30;

function openSqlite(file: string, options: OpenOptions): DatabaseHandle {
  const native = openNative(file, options);
  // WAL lets the server read while an `import` in another process writes; a writer waits for the lock
  // in ImmediateSqliteDriver (asynchronously), so SQLite's own busy handler is off; FULL sync so a
  // committed import survives power loss.
  native.pragma('journal_mode = WAL');
  native.pragma('busy_timeout = 0');
  native.pragma('synchronous = FULL');
  native.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withPreparedStatements(native) }) });
  return {
    db,
    dialect: 'sqlite',
    describe: file,
    close: () => db.destroy(),
    async readingAll(work) {
      // Issue 15, start-up: the first snapshot reads every published row. Through SQLite's memory map
      // the pages are not copied into its page cache by one read() call each: at 10,000 reviews the
      // read took about half the CPU (user 150 → 80 ms, system 100 → 30 ms, in a fresh process). Mapped
      // pages count towards the resident size while mapped (about 20 MB at 10k), so the map is dropped
      // again afterwards (mmap_size 0 unmaps at the next statement). Writes never go through it.
      native.pragma(`mmap_size = ${READ_ALL_MMAP_BYTES}`);
      try {
        return await work();
      } finally {
        native.pragma('mmap_size = 0');
      }
    },
    async backup(target) {
      // SQLite's online backup copies pages in steps, so the server keeps reading and writing meanwhile,
      // and the copy is one consistent state of the database.
      await native.backup(target);
    },
  };
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  // Loaded only in PostgreSQL mode: a SQLite server never needs the driver (issue 14, start-up).
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
