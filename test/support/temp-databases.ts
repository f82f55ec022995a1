import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';

/**
 * Databases a test opens, closed after it, with SQLite files in a fresh temporary folder each (removed
 * after the test). Call at the top level of a test file.
 */
export function useTempDatabases(prefix: string): {
  /** A new SQLite file database. */
  file(): Promise<DatabaseHandle>;
  /** Any database URL (`sqlite::memory:`, say), closed after the test. */
  open(url: string): Promise<DatabaseHandle>;
} {
  let handles: DatabaseHandle[] = [];
  let dirs: string[] = [];
  afterEach(async () => {
    for (const h of handles) await h.close();
    for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
    handles = [];
    dirs = [];
  });
  const open = async (url: string) => {
    const h = await openDatabase(url);
    handles.push(h);
    return h;
  };
  return {
    async file() {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
      dirs.push(dir);
      return open(`sqlite:${path.join(dir, 'db.sqlite')}`);
    },
    open,
  };
}
