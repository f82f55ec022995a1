import { afterEach, describe, expect, it } from 'vitest';
import { EMPTY_BUSINESS, type Business } from '../../src/domain/business.js';
import { catalogKey } from '../../src/domain/catalog-key.js';
import { createMentionMatcher } from '../../src/domain/mentions.js';
import type { PublicDoc, PublishedRecord, ReviewStore } from '../../src/domain/ports.js';
import { toPublicReview } from '../../src/domain/public-review.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { business, manualClock, review, reviews } from './fixtures.js';

/** A fresh, empty database for one test: its DATABASE_URL and how to throw it away. */
export interface FreshDatabase {
  url: string;
  dispose(): Promise<void>;
}

/**
 * A fresh database opened twice, as two processes (replicas, or one process and the next after a
 * restart) open it; `cleanups` closes both and throws the database away, in reverse order.
 */
export async function openTwoConnections(
  fresh: () => Promise<FreshDatabase>,
  cleanups: (() => Promise<void>)[],
): Promise<[DatabaseHandle, DatabaseHandle]> {
  const f = await fresh();
  cleanups.push(() => f.dispose());
  const a = await openDatabase(f.url);
  cleanups.push(() => a.close());
  const b = await openDatabase(f.url);
  cleanups.push(() => b.close());
  return [a, b];
}

/** What `publishedById` gives for these ids: `json:` and the public JSON, or `record:` and the id. */
async function published(store: ReviewStore, ids: string[], business: Business | null): Promise<Map<string, string>> {
  const rows = await store.publishedById(ids, catalogKey(business));
  return new Map(rows.map((r) => [r.id, 'publicJson' in r ? `json:${r.publicJson}` : `record:${r.stored.id}`]));
}

/** The public JSON of the stored record `id`, computed as the snapshot did before public JSON was stored. */
async function expectedJson(store: ReviewStore, id: string, business: Business | null): Promise<string> {
  const stored = (await store.reviewsById([id]))[0]!;
  const matcher = createMentionMatcher(business ?? EMPTY_BUSINESS);
  return `json:${JSON.stringify(toPublicReview(stored, matcher))}`;
}

/**
 * The ReviewStore port's contract (style.md: one suite, run against every database). Each engine's test
 * file calls this with a factory of empty databases; nothing here knows which engine it runs on.
 */
export function describeReviewStoreContract(name: string, fresh: () => Promise<FreshDatabase>): void {
  describe(`ReviewStore contract: ${name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    async function open(url?: string) {
      let target = url;
      if (!target) {
        const f = await fresh();
        cleanups.push(() => f.dispose());
        target = f.url;
      }
      const handle: DatabaseHandle = await openDatabase(target);
      cleanups.push(() => handle.close());
      const clock = manualClock();
      return { handle, url: target, clock, store: createReviewStore(handle.db, { now: clock.now }) };
    }

    it('starts empty at version 0', async () => {
      const { store } = await open();
      expect(await store.version()).toBe(0);
      expect(await store.isEmpty()).toBe(true);
      expect(await store.business()).toBeNull();
      expect(await store.load()).toEqual({
        business: null,
        businessUpdatedAt: null,
        reviews: [],
        version: 0,
        changedAt: new Date(0).toISOString(),
      });
    });

    it('adds reviews, bumps the version once per import, and loads them back unchanged', async () => {
      const { store, clock } = await open();
      const input = [review('a', { text: 'Zoë fixed the boiler ✨ "quoted" \\ back\u0000slash\u0001' }), review('b', { rating: 1 })];
      const summary = await store.applyImport({ reviews: input, replace: false });
      expect(summary).toEqual({ added: 2, updated: 0, unchanged: 0, deleted: 0, unpublished: 0, business: 'absent' });
      expect(await store.version()).toBe(1);
      expect(await store.isEmpty()).toBe(false);
      const state = await store.load();
      expect(state.version).toBe(1);
      const byId = new Map(state.reviews.map((r) => [r.id, r]));
      expect(byId.get('a')).toEqual({ ...input[0], updated_at: clock.iso() });
      expect(byId.get('b')?.rating).toBe(1);
    });

    it('updates changed records, keeps updated_at of unchanged ones, and does not bump for a no-op', async () => {
      const { store, clock } = await open();
      await store.applyImport({ reviews: [review('a'), review('b')], replace: false });
      const first = clock.iso();
      clock.advance(60_000);
      const summary = await store.applyImport({ reviews: [review('a', { text: 'changed' }), review('b')], replace: false });
      expect(summary).toMatchObject({ added: 0, updated: 1, unchanged: 1 });
      expect(await store.version()).toBe(2);
      const state = await store.load();
      const byId = new Map(state.reviews.map((r) => [r.id, r]));
      expect(byId.get('a')?.updated_at).toBe(clock.iso());
      expect(byId.get('a')?.text).toBe('changed');
      expect(byId.get('b')?.updated_at).toBe(first);

      clock.advance(60_000);
      const again = await store.applyImport({ reviews: [review('a', { text: 'changed' }), review('b')], replace: false });
      expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 2, deleted: 0 });
      expect(await store.version()).toBe(2);
    });

    it('replace deletes every review the import does not name', async () => {
      const { store } = await open();
      await store.applyImport({ reviews: reviews(5), replace: false });
      const summary = await store.applyImport({ reviews: reviews(2), replace: true });
      expect(summary).toMatchObject({ deleted: 3, unchanged: 2 });
      expect((await store.load()).reviews.map((r) => r.id).sort()).toEqual(['r000000', 'r000001']);
      const empty = await store.applyImport({ reviews: [], replace: true });
      expect(empty.deleted).toBe(2);
      expect((await store.load()).reviews).toEqual([]);
      expect(await store.version()).toBe(3);
    });

    it('writes nothing when an import fails part-way (after a whole batch was written)', async () => {
      const { store } = await open();
      await store.applyImport({ reviews: [review('keep')], business: business(), replace: false });
      const before = await store.load();
      // 600 valid records fill the first 500-row batch; the invalid one fails the second.
      const bad = [...reviews(600), review('bad', { rating: 7 })];
      await expect(store.applyImport({ reviews: bad, business: business({ name: 'Renamed' }), replace: true })).rejects.toThrow();
      expect(await store.load()).toEqual(before);
      expect(await store.version()).toBe(1);
    });

    it('upserts the business: added, unchanged, updated', async () => {
      const { store, clock } = await open();
      expect((await store.applyImport({ business: business(), reviews: [], replace: false })).business).toBe('added');
      expect(await store.version()).toBe(1);
      expect(await store.isEmpty()).toBe(false);
      const added = clock.iso();
      clock.advance(1000);
      expect((await store.applyImport({ business: business(), reviews: [], replace: false })).business).toBe('unchanged');
      expect(await store.version()).toBe(1);
      expect((await store.load()).businessUpdatedAt).toBe(added);
      clock.advance(1000);
      const renamed = business({ name: 'Acme Plumbing & Heating' });
      expect((await store.applyImport({ business: renamed, reviews: [], replace: false })).business).toBe('updated');
      expect(await store.business()).toEqual(renamed);
      const state = await store.load();
      expect(state).toMatchObject({ business: renamed, businessUpdatedAt: clock.iso(), version: 2 });
    });

    it('stores unpublished records and leaves filtering to the snapshot', async () => {
      const { store } = await open();
      const summary = await store.applyImport({
        reviews: [review('shown'), review('hidden', { hidden: true }), review('unverified', { verified: false })],
        replace: false,
      });
      expect(summary.unpublished).toBe(2);
      const state = await store.load();
      expect(state.reviews.map((r) => [r.id, r.verified, r.hidden]).sort()).toEqual([
        ['hidden', true, true],
        ['shown', true, false],
        ['unverified', false, false],
      ]);
    });

    it('runs concurrent writers: every import lands and each bumps the version once', async () => {
      // Two stores over one handle: on PostgreSQL the pool gives each transaction its own connection (real
      // concurrency, row locks on data_version serialize the bumps); SQLite's driver queues them. Two
      // handles would deadlock SQLite inside one process: better-sqlite3 waits for a lock synchronously.
      const { handle, clock } = await open();
      const a = createReviewStore(handle.db, { now: clock.now });
      const b = createReviewStore(handle.db, { now: clock.now });
      const results = await Promise.all([
        a.applyImport({ reviews: reviews(300, 'a'), replace: false }),
        b.applyImport({ reviews: reviews(300, 'b'), business: business(), replace: false }),
        a.applyImport({ reviews: [review('shared', { text: 'from a' })], replace: false }),
        b.applyImport({ reviews: [review('shared', { text: 'from b' })], replace: false }),
      ]);
      expect(results[0].added + results[1].added).toBe(600);
      expect(await a.version()).toBe(4);
      const state = await b.load();
      expect(state.reviews).toHaveLength(601);
      expect(['from a', 'from b']).toContain(state.reviews.find((r) => r.id === 'shared')?.text);
    });

    it('sees another connection’s committed writes through version() and load()', async () => {
      const a = await open();
      const b = await open(a.url);
      expect(await b.store.version()).toBe(0);
      await a.store.applyImport({ reviews: [review('x')], replace: false });
      expect(await b.store.version()).toBe(1);
      expect((await b.store.load()).reviews.map((r) => r.id)).toEqual(['x']);
    });

    it('imports and loads a large batch in one transaction', async () => {
      const { store } = await open();
      const many = reviews(5000);
      let lastProgress = 0;
      const summary = await store.applyImport({ reviews: many, replace: false }, (done) => {
        lastProgress = done;
      });
      expect(summary.added).toBe(5000);
      expect(lastProgress).toBe(5000);
      const state = await store.load();
      expect(state.version).toBe(1);
      expect(state.reviews).toHaveLength(5000);
      const replaced = await store.applyImport({ reviews: many.slice(0, 1000), replace: true });
      expect(replaced.deleted).toBe(4000);
      expect((await store.load()).reviews).toHaveLength(1000);
    });

    it('removes the marked demo on the first import of own data, in the same transaction (contract §3.1)', async () => {
      const { store } = await open();
      await store.applyImport({
        business: business({ id: 'demo', name: 'Demo Co' }),
        reviews: reviews(3, 'demo-'),
        replace: false,
        demo: true,
      });
      // The demo may be reloaded over itself without stepping aside.
      expect((await store.applyImport({ reviews: reviews(3, 'demo-'), replace: false, demo: true })).demo_removed).toBeUndefined();
      const v = await store.version();
      // A failing import of own data leaves the demo where it was.
      await expect(store.applyImport({ reviews: [review('own', { rating: 9 })], replace: false })).rejects.toThrow();
      expect((await store.load()).reviews).toHaveLength(3);
      const summary = await store.applyImport({ reviews: [review('own')], replace: false });
      expect(summary).toEqual({
        added: 1,
        updated: 0,
        unchanged: 0,
        deleted: 0,
        unpublished: 0,
        business: 'absent',
        demo_removed: { name: 'Demo Co', reviews: 3 },
      });
      const state = await store.load();
      expect(state.business).toBeNull();
      expect(state.reviews.map((r) => r.id)).toEqual(['own']);
      expect(state.version).toBe(v + 1);
      // Own data stays: the next import removes nothing.
      const next = await store.applyImport({ business: business(), reviews: [review('own2')], replace: false });
      expect(next.demo_removed).toBeUndefined();
      expect((await store.load()).reviews).toHaveLength(2);
    });

    it('reads the header, published stamps in id pages, and records by id (the incremental build)', async () => {
      const { store, clock } = await open();
      const input = [...reviews(7), review('x-hidden', { hidden: true }), review('x-unverified', { verified: false })];
      await store.applyImport({ business: business(), reviews: input, replace: false });
      const header = await store.header();
      expect(header).toEqual({ business: business(), businessUpdatedAt: clock.iso(), version: 1, changedAt: clock.iso() });
      const pages: string[][] = [];
      let after: string | null = null;
      for (;;) {
        const page = await store.publishedStamps(after, 3);
        pages.push(page.map((s) => s.id));
        for (const s of page) expect(s.contentHash).toMatch(/^[0-9a-f]{64}$/);
        if (page.length < 3) break;
        after = page.at(-1)!.id;
      }
      const published = reviews(7).map((r) => r.id);
      expect(pages).toEqual([published.slice(0, 3), published.slice(3, 6), published.slice(6)]);
      const loaded = await store.load();
      const byId = await store.reviewsById(['r000002', 'x-hidden', 'missing']);
      expect(new Set(byId)).toEqual(new Set(loaded.reviews.filter((r) => r.id === 'r000002' || r.id === 'x-hidden')));
      // An update changes the stamp's hash; an unchanged record keeps it.
      const before = new Map((await store.publishedStamps(null, 100)).map((s) => [s.id, s.contentHash]));
      await store.applyImport({ reviews: [review('r000001', { text: 'changed' })], replace: false });
      const afterUpdate = new Map((await store.publishedStamps(null, 100)).map((s) => [s.id, s.contentHash]));
      expect(afterUpdate.get('r000001')).not.toBe(before.get('r000001'));
      expect(afterUpdate.get('r000002')).toBe(before.get('r000002'));
    });

    it('reads every published review in id pages as publishedById gives them (a first build)', async () => {
      const { store, handle } = await open();
      const input = [...reviews(7), review('x-hidden', { hidden: true }), review('x-unverified', { verified: false })];
      await store.applyImport({ business: business(), reviews: input, replace: false });
      // One row without current JSON: it comes back as its record.
      await handle.db.updateTable('reviews').set({ public_doc: null, public_key: null }).where('id', '=', 'r000004').execute();
      const key = catalogKey(business());
      const pages: PublishedRecord[][] = [];
      let after: string | null = null;
      for (;;) {
        const page = await store.publishedPage(after, 3, key);
        pages.push(page);
        if (page.length < 3) break;
        after = page.at(-1)!.id;
      }
      const ids = reviews(7).map((r) => r.id);
      expect(pages.map((p) => p.map((r) => r.id))).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);
      const byId = new Map((await store.publishedById(ids, key)).map((r) => [r.id, r]));
      expect(pages.flat()).toEqual(ids.map((id) => byId.get(id)));
      expect('stored' in byId.get('r000004')!).toBe(true);
      expect('publicJson' in byId.get('r000003')!).toBe(true);
    });

    it('counts a dry run exactly and writes nothing', async () => {
      const { store } = await open();
      await store.applyImport({
        business: business({ id: 'demo', name: 'Demo Co' }),
        reviews: reviews(2, 'demo-'),
        replace: false,
        demo: true,
      });
      const before = await store.load();
      const dry = await store.applyImport({ business: business(), reviews: [review('a'), review('b')], replace: false, dryRun: true });
      expect(dry).toEqual({
        added: 2,
        updated: 0,
        unchanged: 0,
        deleted: 0,
        unpublished: 0,
        business: 'added',
        demo_removed: { name: 'Demo Co', reviews: 2 },
      });
      expect(await store.load()).toEqual(before);
      // Nor any public JSON: the demo's rows keep theirs, the dry run's rows were never written.
      expect(await published(store, ['a', 'b'], business())).toEqual(new Map());
      expect([...(await published(store, ['demo-000000'], business({ id: 'demo', name: 'Demo Co' }))).values()][0]).toMatch(/^json:/);
    });

    // Start-up: a start reads each review's public JSON instead of resolving and serializing it.
    it('stores the public JSON of every published row an import writes, resolved against the business in effect', async () => {
      const { store } = await open();
      const mike = (aliases: string[]) =>
        business({ technicians: [{ id: 'mike', name: 'Mike Rivera', role: null, aliases }], services: [], service_areas: [] });
      const input = [
        review('a', { text: 'Mike fixed the boiler.', title: 'Mike!' }),
        review('b', { mention_tags: { technicians: ['mike'], services: [], service_areas: [] } }),
        review('c', { text: 'Zoë ✨ "quoted" \\ back\u0000slash', response: { text: 'Thanks', date: '2025-03-15' } }),
        review('x-hidden', { hidden: true }),
        review('x-unverified', { verified: false }),
      ];
      await store.applyImport({ business: mike(['Mike']), reviews: input, replace: false });
      const ids = input.map((r) => r.id);
      const first = await published(store, ids, mike(['Mike']));
      // Unpublished rows are left out; each published one is exactly what the snapshot used to compute.
      expect([...first.keys()].sort()).toEqual(['a', 'b', 'c']);
      for (const id of ['a', 'b', 'c']) expect(first.get(id), id).toBe(await expectedJson(store, id, mike(['Mike'])));
      expect(first.get('a')).toContain('"technicians":[{"id":"mike","name":"Mike Rivera"}]');
      // Another catalog: the stored records, as load() reads them.
      const other = await store.publishedById(ids, catalogKey(mike([])));
      const loaded = new Map((await store.load()).reviews.map((r) => [r.id, r]));
      for (const r of other) expect('stored' in r && r.stored).toEqual(loaded.get(r.id));

      // Without a business, an import resolves against the stored one.
      await store.applyImport({ reviews: [review('d', { text: 'Mike again' })], replace: false });
      expect((await published(store, ['d'], mike(['Mike']))).get('d')).toBe(await expectedJson(store, 'd', mike(['Mike'])));
      // A new catalog: the rows this import writes get its JSON, the others keep theirs (a later build refills).
      await store.applyImport({ business: mike([]), reviews: [review('a', { text: 'Mike came back.' })], replace: false });
      const after = await published(store, ['a', 'b'], mike([]));
      expect(after.get('a')).toBe(await expectedJson(store, 'a', mike([])));
      expect(after.get('b')).toBe('record:b');
      expect((await published(store, ['b'], mike(['Mike']))).get('b')).toMatch(/^json:/);
      // A row hidden by an import loses its JSON with its publication.
      await store.applyImport({ reviews: [review('c', { hidden: true })], replace: false });
      expect(await published(store, ['c'], mike([]))).toEqual(new Map());
    });

    it('resolves against no business once the demo stepped aside', async () => {
      const { store } = await open();
      await store.applyImport({
        business: business({ id: 'demo', name: 'Demo Co' }),
        reviews: reviews(1, 'demo-'),
        replace: false,
        demo: true,
      });
      await store.applyImport({ reviews: [review('own')], replace: false });
      expect((await published(store, ['own'], null)).get('own')).toBe(await expectedJson(store, 'own', null));
    });

    it('fills public JSON without moving the change counter, and never over a row written since or already current', async () => {
      const { store, handle } = await open();
      await store.applyImport({ business: business(), reviews: reviews(4), replace: false });
      // Rows from before migration 0006 have neither column.
      await handle.db.updateTable('reviews').set({ public_doc: null, public_key: null }).execute();
      const ids = reviews(4).map((r) => r.id);
      const key = catalogKey(business());
      const rows = await store.publishedById(ids, key);
      const docs: PublicDoc[] = rows.map((r) => {
        if (!('stored' in r)) throw new Error(`${r.id} has public JSON`);
        return { id: r.id, contentHash: r.contentHash, updatedAt: r.stored.updated_at, json: `{"filled":"${r.id}"}` };
      });
      // Written since it was read: a new content hash, and the import's own JSON.
      await store.applyImport({ reviews: [review(ids[0]!, { text: 'changed' })], replace: false });
      // Already current (here by hand, as another replica would): left as it is.
      await handle.db.updateTable('reviews').set({ public_doc: '{"other":1}', public_key: key }).where('id', '=', ids[1]!).execute();
      const header = await store.header();
      await store.storePublic(key, docs);
      expect(await store.header()).toEqual(header);
      const filled = await published(store, ids, business());
      expect(filled.get(ids[0]!)).toBe(await expectedJson(store, ids[0]!, business()));
      expect(filled.get(ids[1]!)).toBe('json:{"other":1}');
      expect(filled.get(ids[2]!)).toBe(`json:{"filled":"${ids[2]}"}`);
      expect(filled.get(ids[3]!)).toBe(`json:{"filled":"${ids[3]}"}`);
      // Another catalog's fill replaces a stale key.
      await store.storePublic('k2', [docs[2]!]);
      expect((await store.publishedById([ids[2]!], 'k2'))[0]).toEqual({
        id: ids[2],
        contentHash: docs[2]!.contentHash,
        publicJson: docs[2]!.json,
      });
      // Nothing to fill is no statement at all.
      await store.storePublic(key, []);
    });
  });
}
