import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/storage/connect.js';
import { useTempDatabases } from '../support/temp-databases.js';

/**
 * Start-up: the first snapshot reads the SQLite file through a memory map, which is dropped
 * again afterwards (mapped pages count towards the server's resident size), also when the read fails.
 */
const databases = useTempDatabases('review-data-read-all-');

async function mmapSize(h: DatabaseHandle): Promise<number> {
  const row = (await sql<{ mmap_size: number }>`pragma mmap_size`.execute(h.db)).rows[0];
  return Number(row?.mmap_size);
}

describe('readingAll on SQLite', () => {
  it('maps the file while the work runs, then unmaps it, also after a failure', async () => {
    const h = await databases.file();
    expect(await mmapSize(h)).toBe(0);
    const during = await h.readingAll(() => mmapSize(h));
    expect(during).toBeGreaterThan(0);
    expect(await mmapSize(h)).toBe(0);
    await expect(h.readingAll(() => Promise.reject(new Error('read failed')))).rejects.toThrow('read failed');
    expect(await mmapSize(h)).toBe(0);
  });
});
