import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createDocumentCacheStore } from '../../src/storage/document-cache-store.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { sql } from 'kysely';

const review = (id: string) => ({
  id,
  date: '2024-01-01',
  rating: 5,
  title: null,
  text: 'fine',
  language: null,
  author: { name: 'A.', location: null },
  source: { platform: 'google', url: null },
  verified: true,
  hidden: false,
  mention_tags: { technicians: [], services: [], service_areas: [] },
  response: null,
});

/** Another process that takes SQLite's write lock, commits a change after `holdMs`, and exits. */
function holdWriteLock(file: string, holdMs: number): Promise<ChildProcess> {
  const code = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)});
    d.exec('BEGIN IMMEDIATE'); d.prepare('update data_version set version = version + 1 where singleton = 1').run();
    console.log('locked'); setTimeout(() => { d.exec('COMMIT'); d.close(); }, ${holdMs});`;
  const child = spawn(process.execPath, ['-e', code], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('error', reject);
  });
}

describe('SQLite across processes', () => {
  let handle: DatabaseHandle | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rds-lock-'));
  afterEach(async () => {
    await handle?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an import waits for a write lock held by another process instead of failing, and sees its commit', async () => {
    const file = path.join(dir, 'db.sqlite');
    handle = await openDatabase(`sqlite:${file}`);
    const store = createReviewStore(handle.db);
    // A read first: a deferred transaction begun from this point would be stale after the other commit.
    const before = await store.version();
    await holdWriteLock(file, 800);
    const started = Date.now();
    const summary = await store.applyImport({ reviews: [review('a')], replace: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(summary.added).toBe(1);
    // The other process's bump and this import's bump are both there.
    expect(await store.version()).toBe(before + 2);
  });

  it('a document cache write gives up on a lock another process holds instead of stalling the server (issue 15)', async () => {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'db.sqlite');
    handle = await openDatabase(`sqlite:${file}`);
    const cache = createDocumentCacheStore(handle.db, handle.dialect);
    const doc = {
      name: 'insights.json',
      inputHash: 'h',
      body: '{}',
      lastModified: 0,
      weakDate: false,
      renderedAt: new Date(0).toISOString(),
    };
    // Held far longer than the test's own timeout: waiting the connection's 10 s busy_timeout would fail it.
    const holder = await holdWriteLock(file, 30_000);
    try {
      await expect(cache.write(doc)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      holder.kill();
    }
    // The connection's own timeout is back for the imports and the other writes of the server.
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(handle.db);
    expect(rows[0]?.timeout).toBe(10_000);
    expect(await cache.read('insights.json')).toBeUndefined();
  });
});
