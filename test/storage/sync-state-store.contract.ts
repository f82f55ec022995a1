import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DeletionGuardError } from '../../src/domain/deletion-guard.js';
import { SyncClaimLostError } from '../../src/domain/sync-ports.js';
import type { DatabaseHandle } from '../../src/storage/connect.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { createSyncStateStore } from '../../src/storage/sync-state-store.js';
import { review } from './fixtures.js';
import { openTwoConnections, type FreshDatabase } from './review-store.contract.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const LEASE = 60_000;

/**
 * The sync port's contract (contract §3.2): one claim per platform across replicas, runs recorded, the
 * stored refresh token shared; and the review store's platform listing with its deletion guard.
 */
export function describeSyncStoreContract(name: string, fresh: () => Promise<FreshDatabase>): void {
  describe(`Sync stores contract: ${name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });
    const handles: DatabaseHandle[] = [];
    async function openTwo() {
      const [a, b] = await openTwoConnections(fresh, cleanups);
      handles.push(a, b);
      return {
        a: createSyncStateStore(a.db),
        b: createSyncStateStore(b.db),
        reviews: createReviewStore(a.db),
        other: createReviewStore(b.db),
      };
    }

    it('one holder at a time; a lapsed claim is taken over; finish releases and records the run', async () => {
      const { a, b } = await openTwo();
      expect(await a.claim({ source: 'google', holder: 'A', now: T0, leaseMs: LEASE })).toBe(true);
      expect(await b.claim({ source: 'google', holder: 'B', now: at(1000), leaseMs: LEASE })).toBe(false);
      // Another platform is claimed on its own.
      expect(await b.claim({ source: 'trustpilot', holder: 'B', now: at(1000), leaseMs: LEASE })).toBe(true);
      expect(await a.renew('google', 'A', at(50_000), LEASE)).toBe(true);
      expect(await b.claim({ source: 'google', holder: 'B', now: at(100_000), leaseMs: LEASE })).toBe(false);
      // A holds until 110 s; at 111 s it has lapsed (A died): B takes it, and A's renewal fails.
      expect(await b.claim({ source: 'google', holder: 'B', now: at(111_000), leaseMs: LEASE })).toBe(true);
      expect(await a.renew('google', 'A', at(112_000), LEASE)).toBe(false);
      await a.finish('google', 'A', { at: at(113_000), outcome: 'success', message: null });
      expect((await a.status('google'))?.holder).toBe('B');
      await b.finish('google', 'B', { at: at(114_000), outcome: 'failed', message: 'HTTP 500 on page 2' });
      const status = await a.status('google');
      expect(status).toMatchObject({ holder: null, lastOutcome: 'failed', lastMessage: 'HTTP 500 on page 2', lastSuccessAt: null });
      expect(status?.lastStartedAt).toEqual(at(111_000));
      expect(await a.claim({ source: 'google', holder: 'A', now: at(115_000), leaseMs: LEASE })).toBe(true);
      await a.finish('google', 'A', { at: at(116_000), outcome: 'success', message: null });
      expect(await b.lastSuccesses()).toEqual({ google: at(116_000) });
    });

    it('a scheduled claim is refused when a run started within its interval', async () => {
      const { a, b } = await openTwo();
      const interval = 900_000;
      expect(await a.claim({ source: 'google', holder: 'A', now: T0, leaseMs: LEASE, notStartedWithinMs: interval })).toBe(true);
      await a.finish('google', 'A', { at: at(2000), outcome: 'success', message: null });
      // B asks 3 s later, in the same interval: the run already happened.
      expect(await b.claim({ source: 'google', holder: 'B', now: at(3000), leaseMs: LEASE, notStartedWithinMs: interval })).toBe(false);
      // An unconditional claim (the command line, a push) still runs.
      expect(await b.claim({ source: 'google', holder: 'B', now: at(3000), leaseMs: LEASE })).toBe(true);
      await b.finish('google', 'B', { at: at(4000), outcome: 'success', message: null });
      // One interval after the last start, the next scheduled run is due.
      expect(await a.claim({ source: 'google', holder: 'A', now: at(903_000), leaseMs: LEASE, notStartedWithinMs: interval })).toBe(true);
    });

    it('a holder never takes its own live claim again (a second run would release the first one’s claim)', async () => {
      const { a } = await openTwo();
      expect(await a.claim({ source: 'google', holder: 'A', now: T0, leaseMs: LEASE })).toBe(true);
      expect(await a.claim({ source: 'google', holder: 'A', now: at(1000), leaseMs: LEASE })).toBe(false);
    });

    it('the clock is the database’s, one for every replica', async () => {
      const { a, b } = await openTwo();
      const [x, y] = [await a.clock(), await b.clock()];
      expect(Math.abs(x.getTime() - Date.now())).toBeLessThan(5000);
      expect(y.getTime()).toBeGreaterThanOrEqual(x.getTime());
    });

    it('a refresh token stored by one process is read by another, and replaced', async () => {
      const { a, b } = await openTwo();
      expect(await b.refreshToken('google')).toBeNull();
      await a.storeRefreshToken('google', '1//first', T0);
      expect(await b.refreshToken('google')).toBe('1//first');
      await b.storeRefreshToken('google', '1//second', at(1000));
      expect(await a.refreshToken('google')).toBe('1//second');
      expect(await a.refreshToken('trustpilot')).toBeNull();
    });

    it('a platform listing replaces that platform’s reviews only, and unchanged ones keep their stamp', async () => {
      const { reviews, other } = await openTwo();
      const g = (id: string, text = `Review ${id}`) => review(id, { text, source: { platform: 'google', url: null } });
      await reviews.applyImport({ reviews: [review('w1', { source: { platform: 'website', url: null } })], replace: false });
      const listing = { platform: 'google', allowDeletions: false };
      const first = await reviews.applyImport({ reviews: [g('g1'), g('g2'), g('g3')], replace: false, platformListing: listing });
      expect(first).toMatchObject({ added: 3, deleted: 0 });
      const version = await other.version();
      const stamp = (await other.reviewsById(['g1']))[0]!.updated_at;
      const again = await other.applyImport({ reviews: [g('g1'), g('g2'), g('g3')], replace: false, platformListing: listing });
      expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 3, deleted: 0 });
      expect(await reviews.version()).toBe(version);
      expect((await reviews.reviewsById(['g1']))[0]!.updated_at).toBe(stamp);
      const third = await reviews.applyImport({ reviews: [g('g1', 'edited'), g('g3')], replace: false, platformListing: listing });
      expect(third).toMatchObject({ updated: 1, unchanged: 1, deleted: 1 });
      expect((await other.reviewsById(['w1', 'g1', 'g2', 'g3'])).map((r) => r.id).sort()).toEqual(['g1', 'g3', 'w1']);
    });

    it('a listing whose claim lapsed writes nothing; a held claim is extended by the commit', async () => {
      const { a, reviews, other } = await openTwo();
      const g = (id: string) => review(id);
      expect(await a.claim({ source: 'google', holder: 'A', now: T0, leaseMs: LEASE })).toBe(true);
      const held = { platform: 'google', allowDeletions: false, claim: { holder: 'A', now: at(30_000), leaseMs: LEASE } };
      await reviews.applyImport({ reviews: [g('g1')], replace: false, platformListing: held });
      expect((await a.status('google'))?.claimExpiresAt).toEqual(at(90_000));
      const version = await other.version();
      // At 91 s the claim has lapsed (and B may run): A's listing must not land.
      const late = { ...held, claim: { holder: 'A', now: at(91_000), leaseMs: LEASE } };
      await expect(reviews.applyImport({ reviews: [g('g2')], replace: false, platformListing: late })).rejects.toThrow(SyncClaimLostError);
      const stolen = { ...held, claim: { holder: 'B', now: at(40_000), leaseMs: LEASE } };
      await expect(reviews.applyImport({ reviews: [g('g2')], replace: false, platformListing: stolen })).rejects.toThrow(
        SyncClaimLostError,
      );
      expect(await other.version()).toBe(version);
      expect(await other.reviewsById(['g2'])).toEqual([]);
    });

    it('platformIds lists the platform’s reviews, rows written before the platform column included', async () => {
      const { reviews, other } = await openTwo();
      await reviews.applyImport({
        reviews: [review('g1'), review('g2'), review('w1', { source: { platform: 'website', url: null } })],
        replace: false,
      });
      expect((await other.platformIds('google')).sort()).toEqual(['g1', 'g2']);
      // A replica of an older version writes rows without the column (a rolling upgrade).
      await sql`update reviews set platform = null`.execute(handles.at(-1)!.db);
      expect((await other.platformIds('google')).sort()).toEqual(['g1', 'g2']);
      expect(await other.platformIds('website')).toEqual(['w1']);
    });

    it('a listing the deletion guard refuses changes nothing, not even the reviews it would update', async () => {
      const { reviews, other } = await openTwo();
      const g = (i: number, text = `Review ${i}`) => review(`g${i}`, { text });
      const listing = (allowDeletions: boolean) => ({ platform: 'google', allowDeletions });
      await reviews.applyImport({ reviews: [...Array(10).keys()].map((i) => g(i)), replace: false, platformListing: listing(false) });
      const version = await other.version();
      const shrunk = [g(0, 'edited'), g(1), g(2)];
      await expect(reviews.applyImport({ reviews: shrunk, replace: false, platformListing: listing(false) })).rejects.toThrow(
        DeletionGuardError,
      );
      expect(await other.version()).toBe(version);
      expect((await other.reviewsById(['g0']))[0]!.text).toBe('Review 0');
      const allowed = await other.applyImport({ reviews: shrunk, replace: false, platformListing: listing(true) });
      expect(allowed).toMatchObject({ updated: 1, deleted: 7 });
    });
  });
}
