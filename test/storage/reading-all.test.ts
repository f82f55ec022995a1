import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';

/**
 * Issue 15, start-up: the first snapshot reads the SQLite file through a memory map, which is dropped
 * again afterwards (mapped pages count towards the server's resident size), also when the read fails.
 */
let handle: DatabaseHandle | null = null;
let dir: string | null = null;
afterEach(async () => {
  await handle?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
  handle = null;
  dir = null;
});

async function mmapSize(h: DatabaseHandle): Promise<number> {
  const row = (await sql<{ mmap_size: number }>`pragma mmap_size`.execute(h.db)).rows[0];
  return Number(row?.mmap_size);
}

describe('readingAll on SQLite', () => {
  it('maps the file while the work runs, then unmaps it, also after a failure', async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'review-data-read-all-'));
    handle = await openDatabase(`sqlite:${path.join(dir, 'db.sqlite')}`);
    const h = handle;
    expect(await mmapSize(h)).toBe(0);
    const during = await h.readingAll(() => mmapSize(h));
    expect(during).toBeGreaterThan(0);
    expect(await mmapSize(h)).toBe(0);
    await expect(h.readingAll(() => Promise.reject(new Error('read failed')))).rejects.toThrow('read failed');
    expect(await mmapSize(h)).toBe(0);
  });
});
