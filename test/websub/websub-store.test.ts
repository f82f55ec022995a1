import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebSubStore } from '../../src/domain/websub-ports.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createWebSubStore } from '../../src/storage/websub/index.js';
import { describePostgres } from '../support/postgres-suite.js';
import { claimOne, completeOne } from '../support/websub-store.js';

// The hub store's contract, run against SQLite and PostgreSQL alike (style.md: one suite, every
// database): claims are exclusive until they lapse, the topic hash is a compare-and-set that enqueues
// once, the failure count lives in the store.

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const TOPIC = 'https://h.example/feed.xml';

function contract(open: () => Promise<DatabaseHandle>) {
  let handle: DatabaseHandle;
  let store: WebSubStore;

  beforeEach(async () => {
    handle = await open();
    store = createWebSubStore(handle.db, handle.dialect);
  });
  afterEach(async () => {
    await handle.close();
  });

  async function activeSubscription(callback: string, leaseSeconds = 3600) {
    const id = `intent-${callback}`;
    await store.addIntents([
      {
        id,
        mode: 'subscribe',
        topic: TOPIC,
        requestedTopic: TOPIC,
        callback,
        secret: null,
        leaseSeconds,
        createdAt: T0,
        dueAt: T0,
      },
    ]);
    const intent = await claimOne(store, { worker: 'w', now: T0, claimUntil: T0 + 10_000 });
    expect(await completeOne(store, intent!, { verified: true, worker: 'w', now: T0 })).toBe(true);
  }

  it('moves a topic hash once per content, never back to an older version, and enqueues with it', async () => {
    await activeSubscription('https://a.example/cb');
    await activeSubscription('https://b.example/cb');
    expect(await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0)).toBe(2);
    // another replica that built the same snapshot: nothing more
    expect(await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0)).toBeNull();
    expect(await store.recordTopic({ topic: TOPIC, contentHash: 'h2', sourceVersion: 2 }, T0)).toBe(2);
    // a replica still on version 1 does not move it back
    expect(await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0)).toBeNull();
    expect(await store.topic(TOPIC)).toEqual({ topic: TOPIC, contentHash: 'h2', sourceVersion: 2 });
    // two changes, one pending delivery per subscriber (coalesced), at generation 2
    const claimed = await store.claimDueDeliveries({ worker: 'w', now: T0, claimUntil: T0 + 10_000, limit: 10 });
    expect(claimed.map((d) => [d.subscription.callback, d.generation]).sort()).toEqual([
      ['https://a.example/cb', 2],
      ['https://b.example/cb', 2],
    ]);
  });

  it('recording races between replicas enqueue exactly once', async () => {
    await activeSubscription('https://a.example/cb');
    await store.recordTopic({ topic: TOPIC, contentHash: 'h0', sourceVersion: 0 }, T0);
    await store
      .claimDueDeliveries({ worker: 'w', now: T0, claimUntil: T0 + 1, limit: 10 })
      .then((ds) => Promise.all(ds.map((d) => store.deliveriesSucceeded([{ delivery: d, worker: 'w', now: T0 }]))));
    const results = await Promise.all([1, 2, 3, 4].map(() => store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0)));
    expect(results.filter((r) => r !== null)).toEqual([1]);
  });

  it('gives a claimed delivery to nobody else until the claim lapses, then to exactly one worker', async () => {
    await activeSubscription('https://a.example/cb');
    await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0);
    const opts = (worker: string, now: number) => ({ worker, now, claimUntil: now + 15_000, limit: 10 });
    const [a] = await store.claimDueDeliveries(opts('A', T0));
    expect(a).toBeDefined();
    expect(await store.claimDueDeliveries(opts('B', T0 + 14_000))).toEqual([]);
    const later = T0 + 16_000;
    const racing = await Promise.all(['B', 'C', 'D'].map((w) => store.claimDueDeliveries(opts(w, later))));
    expect(racing.flat()).toHaveLength(1);
    // A's claim was taken over: its late outcome changes nothing and counts nothing
    expect(await store.deliveryFailed(a!, { worker: 'A', now: later, maxFailures: 3, retryAt: () => later })).toBeNull();
    expect((await store.listSubscriptions())[0]!.failures).toBe(0);
  });

  it('counts consecutive failures in the store and removes the subscription at the limit', async () => {
    await activeSubscription('https://a.example/cb');
    await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0);
    let now = T0;
    const results = [];
    for (let i = 0; i < 3; i++) {
      const [d] = await store.claimDueDeliveries({ worker: 'w', now, claimUntil: now + 1000, limit: 1 });
      results.push(await store.deliveryFailed(d!, { worker: 'w', now, maxFailures: 3, retryAt: (f) => now + f * 60_000 }));
      expect(await store.claimDueDeliveries({ worker: 'w', now, claimUntil: now + 1000, limit: 1 })).toEqual([]);
      now += 600_000;
    }
    expect(results).toEqual([
      { failures: 1, removed: false },
      { failures: 2, removed: false },
      { failures: 3, removed: true },
    ]);
    expect(await store.listSubscriptions()).toEqual([]);
  });

  it('a success while newer content was enqueued keeps the delivery pending for the newer content', async () => {
    await activeSubscription('https://a.example/cb');
    await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0);
    const [d] = await store.claimDueDeliveries({ worker: 'w', now: T0, claimUntil: T0 + 1000, limit: 1 });
    await store.recordTopic({ topic: TOPIC, contentHash: 'h2', sourceVersion: 2 }, T0);
    await store.deliveriesSucceeded([{ delivery: d!, worker: 'w', now: T0 }]);
    const [again] = await store.claimDueDeliveries({ worker: 'w', now: T0, claimUntil: T0 + 1000, limit: 1 });
    expect(again?.generation).toBe(2);
    await store.deliveriesSucceeded([{ delivery: again!, worker: 'w', now: T0 }]);
    expect(await store.claimDueDeliveries({ worker: 'w', now: T0, claimUntil: T0 + 1000, limit: 1 })).toEqual([]);
  });

  it('does not enqueue for expired subscriptions and sweeps them', async () => {
    await activeSubscription('https://a.example/cb', 3600);
    const after = T0 + 3600_000 + 1;
    expect(await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, after)).toBe(0);
    expect(await store.removeExpired(after)).toBe(1);
  });

  it('an intent is claimed by one worker; releasing hands it back', async () => {
    await store.addIntents([
      {
        id: 'i1',
        mode: 'subscribe',
        topic: TOPIC,
        requestedTopic: TOPIC,
        callback: 'https://a/cb',
        secret: 's',
        leaseSeconds: 3600,
        createdAt: T0,
        dueAt: T0 + 2000,
      },
    ]);
    expect(await store.claimDueIntents({ worker: 'A', now: T0, claimUntil: T0 + 5000, limit: 5 })).toEqual([]); // not due yet
    const racing = await Promise.all(['A', 'B'].map((w) => claimOne(store, { worker: w, now: T0 + 2000, claimUntil: T0 + 5000 })));
    expect(racing.filter(Boolean)).toHaveLength(1);
    const winner = racing[0] ? 'A' : 'B';
    await store.releaseClaims(winner);
    expect(await store.claimDueIntents({ worker: 'C', now: T0 + 2000, claimUntil: T0 + 9000, limit: 5 })).toHaveLength(1);
    // C's claim: a stale completion by the first winner is refused
    expect(await completeOne(store, racing.find(Boolean)!, { verified: true, worker: winner, now: T0 })).toBe(false);
    expect(await store.listSubscriptions()).toEqual([]);
  });
}

describe('websub store on SQLite', () => {
  contract(() => openDatabase('sqlite::memory:'));
});

await describePostgres('websub store on PostgreSQL', ({ freshDatabase }) => {
  contract(async () => openDatabase((await freshDatabase()).url));
});
