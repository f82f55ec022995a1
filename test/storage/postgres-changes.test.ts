import { afterEach, expect, it } from 'vitest';
import type { DatasetState } from '../../src/domain/ports.js';
import type { Snapshot } from '../../src/snapshot/snapshot.js';
import { createSnapshotManager } from '../../src/snapshot/snapshot-manager.js';
import { openDatabase } from '../../src/storage/connect.js';
import { createPostgresChangeSignal, type PostgresChangeSignal } from '../../src/storage/postgres/change-listener.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { terminateConnections } from '../support/postgres.js';
import { describePostgres } from '../support/postgres-suite.js';
import { review } from './fixtures.js';

/** Polls `check` until it holds or `ms` pass; every wait in these tests is bounded. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 5000, what = 'condition'): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

await describePostgres('PostgreSQL change propagation', ({ adminUrl, freshDatabase }) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
  });

  async function setup() {
    const database = await freshDatabase();
    const writer = await openDatabase(database.url);
    cleanups.push(() => writer.close());
    const signals: number[] = [];
    const signal: PostgresChangeSignal = createPostgresChangeSignal({ url: database.url, minBackoffMs: 50, maxBackoffMs: 200 });
    cleanups.push(() => signal.close());
    signal.subscribe(() => signals.push(Date.now()));
    await signal.ready();
    return { database, writer, store: createReviewStore(writer.db), signal, signals };
  }

  it('signals every committed write, from any connection, and nothing for a rolled-back one', async () => {
    const { store, signals } = await setup();
    await store.applyImport({ reviews: [review('a')], replace: false });
    await eventually(() => signals.length === 1, 2000, 'the first notification');
    await expect(store.applyImport({ reviews: [review('b', { rating: 9 })], replace: false })).rejects.toThrow();
    await store.applyImport({ reviews: [review('a')], replace: false }); // unchanged: no write, no signal
    await store.applyImport({ reviews: [review('c')], replace: false });
    await eventually(() => signals.length === 2, 2000, 'the second notification');
    await new Promise((r) => setTimeout(r, 200));
    expect(signals).toHaveLength(2);
  });

  it('survives terminated connections: the pool reconnects, LISTEN comes back and signals the gap', async () => {
    const { database, store, signal, signals } = await setup();
    await store.applyImport({ reviews: [review('a')], replace: false });
    await eventually(() => signals.length === 1, 2000, 'a notification before the cut');

    expect(await terminateConnections(adminUrl, database.name)).toBeGreaterThanOrEqual(2);
    await eventually(() => !signal.connected(), 2000, 'the listener to notice the cut');
    // The catch-up signal after reconnecting covers notifications nobody was listening for.
    await eventually(() => signal.connected() && signals.length >= 2, 5000, 'the listener to reconnect');
    // The pool drops the dead clients and opens new ones: the next queries just work.
    await eventually(async () => (await store.version().catch(() => -1)) === 1, 5000, 'the pool to reconnect');
    const before = signals.length;
    await store.applyImport({ reviews: [review('b')], replace: false });
    await eventually(() => signals.length === before + 1, 2000, 'a notification after the cut');
  });

  it('refreshes a snapshot manager within 2 s of a write by another process, without polling', async () => {
    const { database, store, signal } = await setup();
    const reader = await openDatabase(database.url);
    cleanups.push(() => reader.close());
    const builds: DatasetState[] = [];
    const readerStore = createReviewStore(reader.db);
    const manager = createSnapshotManager({
      store: readerStore,
      // The manager only reads `version` and `missing` from a snapshot; the real build is tested elsewhere.
      build: async () => {
        const state = await readerStore.load();
        builds.push(state);
        return { snapshot: { version: state.version, missing: new Set() } as unknown as Snapshot, slow: [] };
      },
      pollMs: 0,
    });
    await manager.start();
    signal.subscribe(() => void manager.refresh());
    cleanups.push(async () => manager.stop());
    for (let i = 1; i <= 3; i++) {
      await store.applyImport({ reviews: [review(`r${i}`)], replace: false });
      const ms = await eventually(() => manager.current().version === i, 2000, `snapshot version ${i}`);
      expect(ms).toBeLessThan(2000);
    }
    expect(builds.at(-1)?.reviews).toHaveLength(3);
  });
});
