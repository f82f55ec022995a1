import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { createWebSubStore } from '../../src/storage/websub/index.js';

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
function holdWriteLock(file: string, holdMs: number): Promise<void> {
  const code = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)});
    d.exec('BEGIN IMMEDIATE'); d.prepare('update data_version set version = version + 1 where singleton = 1').run();
    console.log('locked'); setTimeout(() => { d.exec('COMMIT'); d.close(); }, ${holdMs});`;
  const child = spawn(process.execPath, ['-e', code], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('error', reject);
  });
}

describe('SQLite across processes', () => {
  let handle: DatabaseHandle | undefined;
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rds-lock-'));
  });
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

  // SQLite's busy handler sleeps inside the synchronous call, so a server write queued
  // behind another process's import used to stop every request for up to 10 s.
  it('a write waiting for the lock leaves the event loop free', async () => {
    const file = path.join(dir, 'db.sqlite');
    handle = await openDatabase(`sqlite:${file}`);
    const store = createReviewStore(handle.db);
    await store.version();
    await holdWriteLock(file, 600);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      const summary = await store.applyImport({ reviews: [review('b')], replace: false });
      expect(summary.added).toBe(1);
    } finally {
      clearInterval(ticker);
    }
    // A blocked loop runs an interval's callback at most once after it unblocks.
    expect(ticks).toBeGreaterThan(3);
  });

  it("a read is not held up by this process's write waiting for another process's lock", async () => {
    const file = path.join(dir, 'db.sqlite');
    handle = await openDatabase(`sqlite:${file}`);
    const store = createReviewStore(handle.db);
    const before = await store.version();
    await holdWriteLock(file, 1500);
    let written = false;
    const write = store.applyImport({ reviews: [review('c')], replace: false }).finally(() => (written = true));
    await new Promise((r) => setTimeout(r, 50));
    // WAL: a read needs no lock, so it answers while the write above still waits (the readiness probe,
    // MCP session lookups and the change poll are such reads): before the other process commits.
    expect(await store.version()).toBe(before);
    expect(written).toBe(false);
    expect((await write).added).toBe(1);
    expect(await store.version()).toBe(before + 2);
  });

  it('a hub claim with nothing due does not wait for the lock of another process', async () => {
    const file = path.join(dir, 'db.sqlite');
    handle = await openDatabase(`sqlite:${file}`);
    const hub = createWebSubStore(handle.db, 'sqlite');
    const store = createReviewStore(handle.db);
    const before = await store.version();
    await holdWriteLock(file, 2000);
    const claim = { worker: 'w', now: Date.now(), claimUntil: Date.now() + 1000, limit: 10 };
    expect(await hub.claimDueDeliveries(claim)).toEqual([]);
    expect(await hub.claimDueIntents(claim)).toEqual([]);
    // Answered while the other process still held its lock: its commit (a version bump) is not in yet.
    expect(await store.version()).toBe(before);
  });
});
