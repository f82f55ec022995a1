import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentCacheStore, RenderClaimStore, StoredDocument } from '../../src/domain/ports.js';
import { createDocumentCacheStore } from '../../src/storage/document-cache-store.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { openTwoConnections, type FreshDatabase } from './review-store.contract.js';

const doc = (patch: Partial<StoredDocument> = {}): StoredDocument => ({
  name: 'insights.json',
  inputHash: 'a'.repeat(64),
  body: '{"review_count":2,"text":"José — ünïcode"}',
  lastModified: Date.parse('2026-01-01T00:00:07Z'),
  weakDate: false,
  renderedAt: '2026-01-01T00:00:09.123Z',
  ...patch,
});

type Store = DocumentCacheStore & RenderClaimStore;

/** The document cache's contract: what one process writes, a later one (or a replica) reads. */
export function describeDocumentCacheStoreContract(name: string, fresh: () => Promise<FreshDatabase>): void {
  describe(`DocumentCacheStore contract: ${name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    /** Two stores on two connections to one database: a process and the one after its restart. */
    async function openTwo(): Promise<[Store, Store, () => Promise<number>]> {
      const [a, b] = await openTwoConnections(fresh, cleanups);
      const version = () => createReviewStore(b.db).version();
      return [createDocumentCacheStore(a.db), createDocumentCacheStore(b.db), version];
    }

    it('reads nothing before the first write, then what was written, from another connection', async () => {
      const [a, b] = await openTwo();
      expect(await b.read('insights.json')).toBeUndefined();
      await a.write(doc());
      expect(await b.read('insights.json')).toEqual(doc());
      expect(await b.read('other.json')).toBeUndefined();
    });

    it('a write replaces the document of that name and keeps the others', async () => {
      const [a, b] = await openTwo();
      await a.write(doc());
      await a.write(doc({ name: 'other.json', body: '"x"' }));
      const next = doc({
        inputHash: 'b'.repeat(64),
        body: '{"review_count":3}',
        lastModified: Date.parse('2026-01-02T00:00:00Z'),
        weakDate: true,
      });
      await b.write(next);
      expect(await a.read('insights.json')).toEqual(next);
      expect((await a.read('other.json'))?.body).toBe('"x"');
    });

    it('is not a data change: the change counter does not move (no snapshot rebuild, no NOTIFY)', async () => {
      const [a, , version] = await openTwo();
      const before = await version();
      await a.write(doc());
      expect(await version()).toBe(before);
    });

    it('reads a document by its input hash only when it was rendered from those inputs', async () => {
      const [a, b] = await openTwo();
      await a.write(doc());
      expect(await b.read('insights.json', 'a'.repeat(64))).toEqual(doc());
      expect(await b.read('insights.json', 'b'.repeat(64))).toBeUndefined();
      await a.write(doc({ inputHash: 'b'.repeat(64) }));
      expect(await b.read('insights.json', 'a'.repeat(64))).toBeUndefined();
      expect((await b.read('insights.json', 'b'.repeat(64)))?.inputHash).toBe('b'.repeat(64));
    });

    describe('render claims', () => {
      const T = Date.parse('2026-01-01T00:00:00Z');
      const claim = (holder: string, at: number, inputHash = 'a'.repeat(64)) => ({
        name: 'insights.json',
        inputHash,
        holder,
        now: at,
        until: at + 10_000,
      });

      it('of two replicas claiming the same inputs at once, exactly one wins', async () => {
        const [a, b] = await openTwo();
        for (let round = 0; round < 5; round++) {
          const hash = String(round).repeat(64);
          const won = await Promise.all([a.claim(claim('replica-a', T, hash)), b.claim(claim('replica-b', T, hash))]);
          expect(won.filter(Boolean), `round ${round}: ${won.join(', ')}`).toHaveLength(1);
        }
      });

      it('a live claim holds until it lapses; its holder renews it; other inputs are claimed apart', async () => {
        const [a, b] = await openTwo();
        expect(await a.claim(claim('replica-a', T))).toBe(true);
        expect(await b.claim(claim('replica-b', T + 1000))).toBe(false);
        expect(await b.claim(claim('replica-b', T + 1000, 'c'.repeat(64)))).toBe(true);
        // A renewal moves the expiry: at T + 12 s the first lease would have lapsed, the renewed one not.
        expect(await a.claim(claim('replica-a', T + 5000))).toBe(true);
        expect(await b.claim(claim('replica-b', T + 12_000))).toBe(false);
        // Past the expiry (the holder died): another replica takes it over, and the old holder has lost it.
        expect(await b.claim(claim('replica-b', T + 15_001))).toBe(true);
        expect(await a.claim(claim('replica-a', T + 15_002))).toBe(false);
      });

      it("a released claim is free at once; releasing another holder's claim does nothing", async () => {
        const [a, b] = await openTwo();
        expect(await a.claim(claim('replica-a', T))).toBe(true);
        await b.release({ name: 'insights.json', inputHash: 'a'.repeat(64), holder: 'replica-b' });
        expect(await b.claim(claim('replica-b', T + 1))).toBe(false);
        await a.release({ name: 'insights.json', inputHash: 'a'.repeat(64), holder: 'replica-a' });
        expect(await b.claim(claim('replica-b', T + 2))).toBe(true);
      });

      it('claims are not data changes: the change counter does not move', async () => {
        const [a, , version] = await openTwo();
        const before = await version();
        await a.claim(claim('replica-a', T));
        await a.release({ name: 'insights.json', inputHash: 'a'.repeat(64), holder: 'replica-a' });
        expect(await version()).toBe(before);
      });
    });

    it('keeps a large body byte for byte', async () => {
      const [a, b] = await openTwo();
      const body = JSON.stringify({ faq: Array.from({ length: 20_000 }, (_, i) => `question ${i} — «${i}»`) });
      await a.write(doc({ body }));
      expect((await b.read('insights.json'))?.body).toBe(body);
    });
  });
}
