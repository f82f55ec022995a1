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
import pg from 'pg';
import { migrationProvider } from './migrations/index.js';
import { installChangeNotify } from './postgres/change-notify.js';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The location, for logs: a file path or a URL without its password. */
  describe: string;
  close(): Promise<void>;
}

/** `sqlite:./data/reviews.db`, `sqlite::memory:`, `sqlite:/abs/path.db`, or `postgres://…` (contract §1). */
export function parseDatabaseUrl(url: string): { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string } {
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', url };
  const m = /^sqlite:(?:\/\/)?(.+)$/i.exec(url);
  if (m?.[1]) return { dialect: 'sqlite', file: m[1] };
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${url}")`);
}

/**
 * Every SQLite transaction takes the write lock when it begins. A deferred transaction that reads and
 * then writes fails at once with SQLITE_BUSY(_SNAPSHOT) when another process (an `import`) committed in
 * between, whatever the busy timeout; BEGIN IMMEDIATE waits for the lock instead.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
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

function openSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const native = new SqliteDatabase(file);
  // WAL lets the server read while an `import` in another process writes; busy_timeout makes that
  // writer wait for a lock instead of failing; FULL sync so a committed import survives power loss.
  native.pragma('journal_mode = WAL');
  native.pragma('busy_timeout = 10000');
  native.pragma('synchronous = FULL');
  native.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: native }) });
  return { db, dialect: 'sqlite', describe: file, close: () => db.destroy() };
}

function openPostgres(url: string): DatabaseHandle {
  // connectionTimeoutMillis: during a PostgreSQL outage a query fails within seconds (the snapshot keeps
  // serving the last good data) instead of queueing forever; keepAlive notices a silently dead peer.
  const pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5000, keepAlive: true });
  // An idle client that loses its connection (a PostgreSQL restart) emits 'error' on the pool; without
  // a listener that would crash the process. The pool replaces the client on the next query.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const safe = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  return { db, dialect: 'postgres', describe: safe, close: () => db.destroy() };
}

/** Opens the database named by DATABASE_URL and brings its schema up to date. */
export async function openDatabase(url: string): Promise<DatabaseHandle> {
  const parsed = parseDatabaseUrl(url);
  const handle = parsed.dialect === 'sqlite' ? openSqlite(parsed.file) : openPostgres(parsed.url);
  try {
    await migrate(handle.db);
    if (handle.dialect === 'postgres') await installChangeNotify(handle.db);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

export async function migrate(db: Kysely<Database>): Promise<void> {
  // The migrator takes a lock, so replicas starting together apply each migration once.
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
