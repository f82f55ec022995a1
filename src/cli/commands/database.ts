import { DEFAULT_DATABASE_URL, loadConfig } from '../../config.js';
import type { ReviewStore } from '../../domain/ports.js';
import { openDatabase, type DatabaseHandle } from '../../storage/connect.js';
import { createReviewStore } from '../../storage/review-store.js';
import type { CliIo } from '../command.js';

export interface WithStoreOptions {
  /** The SQLite file must exist: for commands that only read it (a backup), which must never create one. */
  mustExist?: boolean;
}

/** Opens the store named by --database-url or DATABASE_URL, for commands that work on the data. */
export async function withStore<T>(
  io: CliIo,
  databaseUrl: string | undefined,
  fn: (store: ReviewStore, handle: DatabaseHandle) => Promise<T>,
  options: WithStoreOptions = {},
): Promise<T> {
  const config = loadConfig(io.env, { 'database-url': databaseUrl });
  const handle = await openDatabase(config.DATABASE_URL, {
    createDirectory: config.DATABASE_URL === DEFAULT_DATABASE_URL && !options.mustExist,
    mustExist: options.mustExist === true,
  });
  try {
    return await fn(createReviewStore(handle.db), handle);
  } finally {
    await handle.close();
  }
}
