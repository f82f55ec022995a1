import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The location, for logs: a file path or a URL without its password. */
  describe: string;
  close(): Promise<void>;
  /**
   * Runs `work`, which reads most of the database once (the first snapshot at start-up), the way that
   * costs least: SQLite maps the file into memory for its duration; PostgreSQL just runs it.
   */
  readingAll<T>(work: () => Promise<T>): Promise<T>;
  /** SQLite only: a consistent copy of the database while others read and write (the online backup API). */
  backup?(file: string): Promise<void>;
}

/**
 * The database named by DATABASE_URL cannot be used: the message names the setting and the location and
 * says what to change (contract §8: one line, exit status 2). `code` is the driver's, when one caused it.
 */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
  readonly code: string | undefined;

  constructor(message: string, options: { cause?: unknown; code?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}

export interface OpenOptions {
  /** Create a missing parent directory of a SQLite file (only for the default DATABASE_URL). */
  createDirectory?: boolean;
  /** The SQLite file must exist already: a command that reads it (a backup) never creates one. */
  mustExist?: boolean;
}
