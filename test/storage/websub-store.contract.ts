import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSubStore } from '../../src/domain/websub-ports.js';
import { openDatabase } from '../../src/storage/connect.js';
import { createWebSubStore } from '../../src/storage/websub/index.js';
import { claimOne, completeOne } from '../support/websub-store.js';
import type { FreshDatabase } from './review-store.contract.js';

const TOPIC = 'https://reviews.example.com/feed.xml';
const OTHER = 'https://reviews.example.com/api/feed.json';
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const LEASE = 60_000;

/**
 * The WebSub store's contract, focused on what several replicas sharing one database rely on:
 * each intent and delivery is claimed by one worker at a time, a lapsed claim is taken over, a topic
 * change enqueues once however many replicas report it, and the failure count is shared.
 */
export function describeWebSubStoreContract(name: string, fresh: () => Promise<FreshDatabase>): void {
  describe(`WebSubStore contract: ${name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    async function open(): Promise<WebSubStore> {
      const f = await fresh();
      cleanups.push(() => f.dispose());
      const handle = await openDatabase(f.url);
      cleanups.push(() => handle.close());
      return createWebSubStore(handle.db, handle.dialect);
    }

    async function intent(
      store: WebSubStore,
      callback: string,
      over: { mode?: 'subscribe' | 'unsubscribe'; topic?: string; secret?: string | null } = {},
    ) {
      const i = {
        id: randomUUID(),
        mode: over.mode ?? ('subscribe' as const),
        topic: over.topic ?? TOPIC,
        requestedTopic: over.topic ?? TOPIC,
        callback,
        secret: over.secret ?? null,
        leaseSeconds: 3600,
        createdAt: T0,
        dueAt: T0,
      };
      await store.addIntents([i]);
      return i;
    }

    async function subscribe(store: WebSubStore, callback: string, topic = TOPIC, secret: string | null = null) {
      const i = await intent(store, callback, { topic, secret });
      const claimed = await claimOne(store, { worker: 'setup', now: T0, claimUntil: T0 + LEASE });
      expect(claimed).toMatchObject({ id: i.id });
      expect(await completeOne(store, claimed!, { verified: true, worker: 'setup', now: T0 })).toBe(true);
    }

    it('gives an intent to one worker; a lapsed claim is taken over and the old holder loses it', async () => {
      const store = await open();
      const i = await intent(store, 'https://a.example/cb');
      expect(await claimOne(store, { worker: 'w1', now: T0, claimUntil: T0 + LEASE })).toMatchObject({ id: i.id });
      expect(await claimOne(store, { worker: 'w2', now: T0 + 1000, claimUntil: T0 + LEASE })).toBeNull();
      const taken = await claimOne(store, { worker: 'w2', now: T0 + LEASE + 1, claimUntil: T0 + 2 * LEASE });
      expect(taken).toMatchObject({ id: i.id, callback: 'https://a.example/cb' });
      expect(await completeOne(store, taken!, { verified: true, worker: 'w1', now: T0 })).toBe(false);
      expect(await completeOne(store, taken!, { verified: true, worker: 'w2', now: T0 })).toBe(true);
      expect((await store.listSubscriptions()).map((s) => s.callback)).toEqual(['https://a.example/cb']);
    });

    it('splits due intents between concurrent workers with no intent claimed twice', async () => {
      const store = await open();
      for (let n = 0; n < 30; n++) await intent(store, `https://s${n}.example/cb`);
      const claims = await Promise.all(
        ['w1', 'w2', 'w3'].map((worker) => store.claimDueIntents({ worker, now: T0, claimUntil: T0 + LEASE, limit: 30 })),
      );
      const ids = claims.flat().map((i) => i.id);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
    });

    it('applies verified intents and leaves the state alone for failed ones', async () => {
      const store = await open();
      await subscribe(store, 'https://a.example/cb', TOPIC, 'old-secret');
      const failed = await intent(store, 'https://a.example/cb', { secret: 'new-secret' });
      const c1 = await claimOne(store, { worker: 'w', now: T0, claimUntil: T0 + LEASE });
      expect(c1).toMatchObject({ id: failed.id });
      expect(await completeOne(store, c1!, { verified: false, worker: 'w', now: T0 })).toBe(true);
      expect((await store.listSubscriptions())[0]?.secret).toBe('old-secret');
      await subscribe(store, 'https://a.example/cb', TOPIC, 'new-secret');
      const subs = await store.listSubscriptions();
      expect(subs.map((s) => [s.callback, s.secret])).toEqual([['https://a.example/cb', 'new-secret']]);
      const unsub = await intent(store, 'https://a.example/cb', { mode: 'unsubscribe' });
      const c2 = await claimOne(store, { worker: 'w', now: T0, claimUntil: T0 + LEASE });
      expect(c2).toMatchObject({ id: unsub.id });
      expect(await completeOne(store, c2!, { verified: true, worker: 'w', now: T0 })).toBe(true);
      expect(await store.listSubscriptions()).toEqual([]);
    });

    it('enqueues a topic change once however many replicas report it, and never moves a topic back', async () => {
      const store = await open();
      for (let n = 0; n < 5; n++) await subscribe(store, `https://s${n}.example/cb`);
      await subscribe(store, 'https://other.example/cb', OTHER);
      const results = await Promise.all([1, 2, 3].map(() => store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0)));
      expect(results.filter((r) => r !== null)).toEqual([5]);
      expect(await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0)).toBeNull();
      expect(await store.recordTopic({ topic: TOPIC, contentHash: 'h0', sourceVersion: 0 }, T0)).toBeNull();
      expect(await store.topic(TOPIC)).toEqual({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 });
      expect(await store.recordTopic({ topic: TOPIC, contentHash: 'h2', sourceVersion: 2 }, T0)).toBe(5);
    });

    it('gives each delivery to one worker; concurrent claims are disjoint and cover every one', async () => {
      const store = await open();
      for (let n = 0; n < 40; n++) await subscribe(store, `https://s${n}.example/cb`);
      await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0);
      const claims = await Promise.all(
        ['w1', 'w2', 'w3'].map((worker) => store.claimDueDeliveries({ worker, now: T0, claimUntil: T0 + LEASE, limit: 40 })),
      );
      const ids = claims.flat().map((d) => d.subscription.id);
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      for (const [k, worker] of ['w1', 'w2', 'w3'].entries()) {
        for (const d of claims[k] ?? []) await store.deliveriesSucceeded([{ delivery: d, worker: worker, now: T0 }]);
      }
      expect(await store.claimDueDeliveries({ worker: 'w4', now: T0 + 10 * LEASE, claimUntil: T0 + 11 * LEASE, limit: 40 })).toEqual([]);
    });

    it('hands a dead worker’s deliveries to another after the lease; the dead one’s late report is ignored', async () => {
      const store = await open();
      await subscribe(store, 'https://a.example/cb');
      await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0);
      const [dying] = await store.claimDueDeliveries({ worker: 'dead', now: T0, claimUntil: T0 + LEASE, limit: 10 });
      expect(dying).toBeDefined();
      expect(await store.claimDueDeliveries({ worker: 'alive', now: T0 + LEASE - 1, claimUntil: T0 + 2 * LEASE, limit: 10 })).toEqual([]);
      const [taken] = await store.claimDueDeliveries({ worker: 'alive', now: T0 + LEASE + 1, claimUntil: T0 + 3 * LEASE, limit: 10 });
      expect(taken?.subscription.callback).toBe('https://a.example/cb');
      expect(await store.deliveryFailed(dying!, { worker: 'dead', now: T0, maxFailures: 3, retryAt: () => T0 })).toBeNull();
      await store.deliveriesSucceeded([{ delivery: taken!, worker: 'alive', now: T0 + LEASE + 2 }]);
      expect((await store.listSubscriptions())[0]?.deliveryDueAt).toBeNull();
    });

    it('coalesces: content enqueued during a delivery is sent again once, not lost', async () => {
      const store = await open();
      await subscribe(store, 'https://a.example/cb');
      await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0);
      const [inFlight] = await store.claimDueDeliveries({ worker: 'w', now: T0, claimUntil: T0 + LEASE, limit: 10 });
      await store.recordTopic({ topic: TOPIC, contentHash: 'h2', sourceVersion: 2 }, T0 + 1);
      await store.recordTopic({ topic: TOPIC, contentHash: 'h3', sourceVersion: 3 }, T0 + 2);
      await store.deliveriesSucceeded([{ delivery: inFlight!, worker: 'w', now: T0 + 3 }]);
      const again = await store.claimDueDeliveries({ worker: 'w', now: T0 + 3, claimUntil: T0 + LEASE, limit: 10 });
      expect(again).toHaveLength(1);
      await store.deliveriesSucceeded([{ delivery: again[0]!, worker: 'w', now: T0 + 4 }]);
      expect(await store.claimDueDeliveries({ worker: 'w', now: T0 + 10 * LEASE, claimUntil: T0 + 11 * LEASE, limit: 10 })).toEqual([]);
    });

    it('shares the failure count between workers and removes the subscription at the third failure', async () => {
      const store = await open();
      await subscribe(store, 'https://a.example/cb');
      await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0);
      const outcomes = [];
      for (const [n, worker] of ['w1', 'w2', 'w3'].entries()) {
        const now = T0 + n * 1000;
        const [d] = await store.claimDueDeliveries({ worker, now, claimUntil: now + LEASE, limit: 10 });
        expect(d, `attempt ${n + 1} is claimable by ${worker}`).toBeDefined();
        outcomes.push(await store.deliveryFailed(d!, { worker, now, maxFailures: 3, retryAt: () => now + 1 }));
      }
      expect(outcomes).toEqual([
        { failures: 1, removed: false },
        { failures: 2, removed: false },
        { failures: 3, removed: true },
      ]);
      expect(await store.listSubscriptions()).toEqual([]);
    });

    it('releases a stopping worker’s claims so another replica can take them at once', async () => {
      const store = await open();
      await subscribe(store, 'https://a.example/cb');
      await intent(store, 'https://b.example/cb');
      await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0);
      expect(await store.claimDueDeliveries({ worker: 'stopping', now: T0, claimUntil: T0 + LEASE, limit: 10 })).toHaveLength(1);
      expect(await store.claimDueIntents({ worker: 'stopping', now: T0, claimUntil: T0 + LEASE, limit: 10 })).toHaveLength(1);
      await store.releaseClaims('stopping');
      expect(await store.claimDueDeliveries({ worker: 'other', now: T0 + 1, claimUntil: T0 + LEASE, limit: 10 })).toHaveLength(1);
      expect(await store.claimDueIntents({ worker: 'other', now: T0 + 1, claimUntil: T0 + LEASE, limit: 10 })).toHaveLength(1);
    });

    it('removes expired subscriptions with their pending deliveries', async () => {
      const store = await open();
      await subscribe(store, 'https://a.example/cb');
      await store.recordTopic({ topic: TOPIC, contentHash: 'h1', sourceVersion: 1 }, T0);
      expect(await store.removeExpired(T0 + 3599_000)).toBe(0);
      expect(await store.removeExpired(T0 + 3600_000)).toBe(1);
      expect(await store.listSubscriptions()).toEqual([]);
      expect(await store.claimDueDeliveries({ worker: 'w', now: T0 + 3600_000, claimUntil: T0 + 2 * 3600_000, limit: 10 })).toEqual([]);
    });
  });
}
