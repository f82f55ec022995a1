import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import { DatabaseOpenError, type DatabaseHandle, type OpenOptions } from './database-handle.js';
import type { Database } from './schema.js';
import { LockWaitingSqliteDialect } from './sqlite-driver.js';
import { retainNative, withPreparedStatements } from './sqlite-statements.js';

/**
 * A SQLite error that is the file's fault (not SQLite's, nor a lock's), as the one line an operator
 * needs (contract §8): which file, and what to do. Null for any other error. Whatever statement meets
 * it, at start-up or later (damage in a page read only by the first snapshot, say), the error says
 * the same; its code is kept.
 */
export function sqliteFileFault(error: unknown, file: string): DatabaseOpenError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const where = `${path.resolve(file)} (DATABASE_URL)`;
  if (code === 'SQLITE_NOTADB') {
    return new DatabaseOpenError(
      `${where} is not a SQLite database: point DATABASE_URL at this service's database, or move the file away to start a new one`,
      { cause: error, code },
    );
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return new DatabaseOpenError(
      `the SQLite database ${where} is damaged (${(error as Error).message}): restore it from a backup (review-data backup), or move it away to start a new one`,
      { cause: error, code },
    );
  }
  return null;
}

/** Runs `work`, turning a fault of the file into its one-line explanation. */
function blamingFile<T>(file: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw sqliteFileFault(error, file) ?? error;
  }
}

/**
 * A zero-byte file is not a database this service made: it writes its schema the moment it creates one.
 * It is what `touch`, a failed copy or an editor's truncation leaves, and SQLite would take it for an
 * empty database, so the demo would quietly take the place of a business's emptied data file (and the
 * next backup would copy the demo). Refused: restoring is the owner's call, and starting afresh is one
 * `rm` away.
 */
function refuseEmptyFile(file: string, options: OpenOptions): void {
  const resolved = path.resolve(file);
  let size: number;
  try {
    size = fs.statSync(resolved).size;
  } catch {
    if (options.mustExist) throw new DatabaseOpenError(`DATABASE_URL names ${resolved}, which does not exist: check DATABASE_URL`);
    return;
  }
  if (size === 0) {
    throw new DatabaseOpenError(
      `${resolved} (DATABASE_URL) is an empty file (0 bytes), not a database: if it held your reviews, restore it from a backup; to start a new database there, delete the file`,
    );
  }
}

function openNative(file: string, options: OpenOptions): SqliteDatabase.Database {
  if (file === ':memory:') return retainNative(new SqliteDatabase(file));
  refuseEmptyFile(file, options);
  const dir = path.dirname(path.resolve(file));
  // A typo in DATABASE_URL must not quietly start an empty database somewhere new.
  if (!fs.existsSync(dir)) {
    if (!options.createDirectory) {
      throw new DatabaseOpenError(`DATABASE_URL names ${file}, but the directory ${dir} does not exist: create it or change DATABASE_URL`);
    }
    fs.mkdirSync(dir, { recursive: true });
  }
  try {
    return retainNative(new SqliteDatabase(file, { fileMustExist: options.mustExist === true }));
  } catch (e) {
    const reason = (e as Error).message;
    throw new DatabaseOpenError(
      `cannot open the SQLite database ${path.resolve(file)} (DATABASE_URL): ${reason}; change DATABASE_URL or fix the path's permissions`,
      { cause: e, code: (e as { code?: string }).code },
    );
  }
}

/** Larger than any database this service holds (100,000 reviews are about 330 MB); SQLite caps it at 2 GB. */
const READ_ALL_MMAP_BYTES = 1 << 30;

export function openSqlite(file: string, options: OpenOptions): DatabaseHandle {
  const native = openNative(file, options);
  try {
    // WAL lets the server read while an `import` in another process writes; a writer waits for the lock
    // in the driver (asynchronously), so SQLite's own busy handler is off; FULL sync so a committed
    // import survives power loss. The first pragma reads the file's header: a file that is not a
    // database fails here.
    // (exec, not pragma(): pragma() prepares a statement object that is then garbage collected, which
    // better-sqlite3 12 on Node 24 must never do: sqlite-statements.ts.)
    blamingFile(file, () => native.exec('PRAGMA journal_mode = WAL'));
    native.exec('PRAGMA busy_timeout = 0; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON');
  } catch (error) {
    native.close();
    throw error;
  }
  const db = new Kysely<Database>({
    dialect: new LockWaitingSqliteDialect({ database: withPreparedStatements(native) }, { mapError: (e) => sqliteFileFault(e, file) ?? e }),
  });
  return {
    db,
    dialect: 'sqlite',
    describe: file,
    close: () => db.destroy(),
    async readingAll(work) {
      // The first snapshot reads every published row. Through SQLite's memory map the pages are not
      // copied into its page cache by one read() call each: at 10,000 reviews the read took about half
      // the CPU (user 150 → 80 ms, system 100 → 30 ms, in a fresh process). Mapped pages count towards
      // the resident size while mapped (about 20 MB at 10k), so the map is dropped again afterwards
      // (mmap_size 0 unmaps at the next statement). Writes never go through it.
      native.exec(`PRAGMA mmap_size = ${READ_ALL_MMAP_BYTES}`);
      try {
        return await work();
      } finally {
        native.exec('PRAGMA mmap_size = 0');
      }
    },
    async backup(target) {
      // SQLite's online backup copies pages in steps, so the server keeps reading and writing meanwhile,
      // and the copy is one consistent state of the database.
      // Its errors are not mapped by sqliteFileFault: one may be the target's ("not a database").
      await native.backup(target);
    },
  };
}
