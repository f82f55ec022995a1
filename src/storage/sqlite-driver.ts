import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';

/** How long a statement waits for another process's lock before failing with SQLITE_BUSY. */
export const SQLITE_LOCK_WAIT_MS = 10_000;

function isLocked(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY' || code === 'SQLITE_LOCKED';
}

export interface LockWaitingOptions {
  /** How long a statement waits for another process's lock (SQLITE_LOCK_WAIT_MS). */
  budgetMs?: number;
  /** The error a failed statement throws, from SQLite's (a damaged file's explanation, say). */
  mapError?(error: unknown): unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One use of the process's single SQLite connection: Kysely acquires one per query outside a
 * transaction, and one per transaction. It takes Kysely's connection mutex at its first statement and
 * keeps it until released, so this process's statements keep their order, except while it waits for
 * another process's lock outside a transaction: then nothing of it is pending (SQLite took no lock for
 * it), and the connection is lent to the statements queued behind it. In WAL mode those reads never
 * wait for a writer (https://sqlite.org/wal.html, "Concurrency"), so a server write queued behind a long
 * import in another process no longer holds up every read of this process with it: the readiness probe,
 * MCP session lookups, the snapshot's change poll.
 */
class LockWaitingConnection implements DatabaseConnection {
  #held: DatabaseConnection | null = null;
  inTransaction = false;

  constructor(
    private readonly lock: () => Promise<DatabaseConnection>,
    private readonly unlock: () => Promise<void>,
    private readonly options: Required<LockWaitingOptions>,
  ) {}

  async #hold(): Promise<DatabaseConnection> {
    this.#held ??= await this.lock();
    return this.#held;
  }

  async release(): Promise<void> {
    if (!this.#held) return;
    this.#held = null;
    await this.unlock();
  }

  /**
   * Runs the statement, retrying while the database is locked by another process, with async sleeps
   * (5 ms growing to 50 ms) within `budgetMs`: SQLite's own busy handler would sleep inside the
   * synchronous better-sqlite3 call and stop the event loop for as long.
   */
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + this.options.budgetMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
      const connection = await this.#hold();
      try {
        return await connection.executeQuery<R>(query);
      } catch (e) {
        if (!isLocked(e) || Date.now() + pause > deadline) throw this.options.mapError(e);
      }
      if (!this.inTransaction) await this.release();
      await sleep(pause);
    }
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const connection = await this.#hold();
    try {
      yield* connection.streamQuery<R>(query, chunkSize);
    } catch (e) {
      throw this.options.mapError(e);
    }
  }
}

/**
 * Kysely's SQLite driver with three changes. Every transaction takes the write lock when it begins: a
 * deferred transaction that reads and then writes fails at once with SQLITE_BUSY(_SNAPSHOT) when another
 * process (an `import`) committed in between, whatever the wait; BEGIN IMMEDIATE waits for the lock
 * instead. Waiting for the lock is asynchronous and lends the connection to others meanwhile
 * (LockWaitingConnection). A ROLLBACK after SQLite already rolled back is not an error (below).
 */
class LockWaitingSqliteDriver implements Driver {
  readonly #inner: SqliteDriver;

  constructor(
    config: ConstructorParameters<typeof SqliteDriver>[0],
    private readonly options: Required<LockWaitingOptions>,
  ) {
    this.#inner = new SqliteDriver(config);
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    const inner = this.#inner;
    return Promise.resolve(
      new LockWaitingConnection(
        () => inner.acquireConnection(),
        () => inner.releaseConnection(),
        this.options,
      ),
    );
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await (connection as LockWaitingConnection).release();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    (connection as LockWaitingConnection).inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#inner.commitTransaction(connection);
    (connection as LockWaitingConnection).inTransaction = false;
  }

  /**
   * On SQLITE_FULL, SQLITE_IOERR and a few others SQLite has already rolled the transaction back itself
   * (https://sqlite.org/lang_transaction.html, "Response To Errors Within A Transaction"); a second
   * ROLLBACK then fails with "no transaction is active" and would hide the real cause (a full disk
   * reported as "cannot rollback"). That failure is dropped so the original error surfaces.
   */
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.#inner.rollbackTransaction(connection);
    } catch (e) {
      if (!/no transaction is active/i.test((e as Error).message)) throw e;
    } finally {
      (connection as LockWaitingConnection).inTransaction = false;
    }
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) => this.#inner.savepoint(connection, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) =>
    this.#inner.rollbackToSavepoint(connection, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) => this.#inner.releaseSavepoint(connection, name, compile);

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

/** The SQLite dialect over LockWaitingSqliteDriver. */
export class LockWaitingSqliteDialect extends SqliteDialect {
  readonly #options: Required<LockWaitingOptions>;

  constructor(
    private readonly config: ConstructorParameters<typeof SqliteDialect>[0],
    options: LockWaitingOptions = {},
  ) {
    super(config);
    this.#options = { budgetMs: options.budgetMs ?? SQLITE_LOCK_WAIT_MS, mapError: options.mapError ?? ((e) => e) };
  }

  override createDriver(): Driver {
    return new LockWaitingSqliteDriver(this.config, this.#options);
  }
}
