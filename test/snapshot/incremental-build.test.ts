import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogKey } from '../../src/domain/catalog-key.js';
import type { ReviewStore } from '../../src/domain/ports.js';
import type * as PublicReview from '../../src/domain/public-review.js';
import { parseSearchQuery } from '../../src/domain/search-params.js';
import { withDecodedCursor } from '../../src/domain/search-query.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { searchReviews } from '../../src/snapshot/queries.js';
import { createSnapshotBuilder } from '../../src/snapshot/snapshot-builder.js';
import { buildSnapshot, type Snapshot } from '../../src/snapshot/snapshot.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { business, review, reviews } from '../storage/fixtures.js';
import { testDocumentRenderers } from '../support/renderers.js';

// Counts the reviews resolved (and then serialized) anywhere: the import and the builder both use this.
const resolves = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/domain/public-review.js', async (importOriginal) => {
  const real = await importOriginal<typeof PublicReview>();
  return {
    ...real,
    toPublicReview: (...args: Parameters<typeof real.toPublicReview>) => {
      resolves.count++;
      return real.toPublicReview(...args);
    },
  };
});

/**
 * The incremental, time-sliced build must publish exactly what a build from
 * scratch publishes, after any sequence of changes, while reading only what changed.
 */
const urls = createServiceUrls('http://127.0.0.1:8080');
const fast = testDocumentRenderers().list.filter((r) => r.kind === 'fast');
const QUERIES = ['rating=5', 'mentions_technician=Mike', 'query=boiler&sort=highest', 'since=2025-06-01&limit=3', 'mentions_service=drain'];
const catalog = (aliases: string[]) =>
  business({
    technicians: [{ id: 'mike-r', name: 'Mike Rivera', role: null, aliases }],
    services: [{ id: 'drain', name: 'Drain cleaning', description: null, aliases: [] }],
  });

/** Each review's JSON as the snapshot holds it (review bytes), in position order. */
function jsonOf(snapshot: Snapshot): string[] {
  return Array.from({ length: snapshot.reviewBytes.count }, (_, i) => snapshot.reviewBytes.json(i));
}

function search(snapshot: Snapshot, q: string): string {
  const parsed = withDecodedCursor(parseSearchQuery(Object.fromEntries(new URLSearchParams(q))));
  if (!parsed.ok) throw new Error(`bad query ${q}`);
  return searchReviews(snapshot, parsed.value).json;
}

async function expectSameAsFromScratch(built: Snapshot, store: ReviewStore): Promise<void> {
  const scratch = (await buildSnapshot(await store.load(), urls, fast, null, built.publishedAt)).snapshot;
  expect(built.version).toBe(scratch.version);
  expect(jsonOf(built)).toEqual(jsonOf(scratch));
  expect(built.reviewBytes.document.equals(scratch.reviewBytes.document)).toBe(true);
  expect(built.view.aggregate).toEqual(scratch.view.aggregate);
  expect(built.view.updatedAt).toBe(scratch.view.updatedAt);
  for (const [name, doc] of scratch.documents) {
    expect(built.documents.get(name)?.etag, name).toBe(doc.etag);
    expect(built.documents.get(name)?.body.equals(doc.body), name).toBe(true);
  }
  for (const q of QUERIES) expect(search(built, q), q).toBe(search(scratch, q));
}

describe('incremental snapshot build', () => {
  let handle: DatabaseHandle;
  let store: ReviewStore;
  let fetched: string[];
  beforeEach(async () => {
    handle = await openDatabase('sqlite::memory:');
    const real = createReviewStore(handle.db);
    fetched = [];
    store = {
      ...real,
      publishedById: (ids, key) => {
        fetched.push(...ids);
        return real.publishedById(ids, key);
      },
      publishedPage: async (after, limit, key) => {
        const rows = await real.publishedPage(after, limit, key);
        fetched.push(...rows.map((r) => r.id));
        return rows;
      },
    };
  });
  afterEach(() => handle.close());

  it('publishes what a build from scratch publishes, after every kind of change, reading only what changed', async () => {
    const builder = createSnapshotBuilder({ store, urls, renderers: fast, pageSize: 7 });
    const initial = reviews(40).map((r, i) => (i % 4 === 0 ? { ...r, text: `Mike fixed the boiler and the drain. ${r.text}` } : r));
    await store.applyImport({ business: catalog(['Mike']), reviews: initial, replace: false });
    let snapshot = (await builder.build(null)).snapshot;
    await expectSameAsFromScratch(snapshot, store);
    expect(fetched).toHaveLength(40);

    const steps: [string, () => Promise<unknown>, number][] = [
      ['update one', () => store.applyImport({ reviews: [{ ...initial[5]!, text: 'Mike was late.', rating: 2 }], replace: false }), 1],
      ['hide one', () => store.applyImport({ reviews: [{ ...initial[6]!, hidden: true }], replace: false }), 0],
      ['add two', () => store.applyImport({ reviews: [review('new-1', { date: '2026-01-01' }), review('new-2')], replace: false }), 2],
      // Also restores the updated and the hidden review: two fetches.
      ['delete by replace', () => store.applyImport({ reviews: initial.slice(0, 30), replace: true }), 2],
      // Mentions depend on the catalog: a new alias re-resolves every review.
      ['catalog change', () => store.applyImport({ business: catalog(['Mike', 'Rivera']), reviews: [], replace: false }), 30],
    ];
    for (const [what, change, expectedFetches] of steps) {
      await change();
      fetched = [];
      snapshot = (await builder.build(snapshot)).snapshot;
      await expectSameAsFromScratch(snapshot, store);
      expect(fetched.length, what).toBe(expectedFetches);
    }
  });

  it('yields to the event loop while it builds', async () => {
    await store.applyImport({ business: catalog([]), reviews: reviews(300), replace: false });
    const builder = createSnapshotBuilder({ store, urls, renderers: fast, pageSize: 50, sliceMs: 0 });
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    try {
      await builder.build(null);
    } finally {
      clearInterval(counting);
    }
    // Unsliced, the build would run to its end in one macrotask, with no timer callback in between.
    expect(turns).toBeGreaterThan(5);
  });

  it('reads again when a write commits mid-build, so no snapshot mixes two versions', async () => {
    await store.applyImport({ business: catalog([]), reviews: reviews(20), replace: false });
    let wrote = false;
    // The first build reads pages of every review: a write commits after the first page.
    const racing: ReviewStore = {
      ...store,
      publishedPage: async (after, limit, key) => {
        const rows = await store.publishedPage(after, limit, key);
        if (!wrote) {
          wrote = true;
          await store.applyImport({
            reviews: [{ ...reviews(20)[19]!, text: 'Changed mid-build.' }, ...reviews(20).slice(0, 10)],
            replace: true,
          });
        }
        return rows;
      },
    };
    const built = (await createSnapshotBuilder({ store: racing, urls, renderers: fast, pageSize: 5 }).build(null)).snapshot;
    expect(wrote).toBe(true);
    expect(built.view.reviews).toHaveLength(11);
    expect(built.view.reviews.map((r) => r.text)).toContain('Changed mid-build.');
    await expectSameAsFromScratch(built, store);
  });

  it('a build that fails after reading a change reads it again next time: no review is dropped', async () => {
    const initial = reviews(4);
    await store.applyImport({ business: catalog([]), reviews: initial, replace: false });
    let failNext = false;
    const flaky: ReviewStore = {
      ...store,
      version: () => (failNext ? ((failNext = false), Promise.reject(new Error('connection lost'))) : store.version()),
    };
    const builder = createSnapshotBuilder({ store: flaky, urls, renderers: fast });
    const first = (await builder.build(null)).snapshot;
    await store.applyImport({ reviews: [{ ...initial[1]!, text: 'Changed after the first build.' }], replace: false });
    failNext = true;
    await expect(builder.build(first)).rejects.toThrow('connection lost');
    const next = (await builder.build(first)).snapshot;
    expect(next.view.reviews).toHaveLength(4);
    expect(next.view.reviews.map((r) => r.text)).toContain('Changed after the first build.');
    await expectSameAsFromScratch(next, store);
  });

  // Start-up: the import stores each review's public JSON; a start reads it as is.
  it('starts over the stored public JSON without resolving or serializing a review, and serves those bytes', async () => {
    const initial = reviews(30).map((r, i) => (i % 3 === 0 ? { ...r, text: `Mike cleared the drain. ${r.text}` } : r));
    await store.applyImport({ business: catalog(['Mike']), reviews: initial, replace: false });
    resolves.count = 0;
    const built = (await createSnapshotBuilder({ store, urls, renderers: fast, pageSize: 7 }).build(null)).snapshot;
    expect(resolves.count).toBe(0);
    await expectSameAsFromScratch(built, store);

    // The stored text is taken as it is (a recomputation would not carry this name).
    const id = initial[4]!.id;
    const stored = (await store.publishedById([id], catalogKey(catalog(['Mike']))))[0]!;
    const json = ('publicJson' in stored ? stored.publicJson : '').replace('"Jane D."', '"Stored As Is"');
    await handle.db.updateTable('reviews').set({ public_doc: json }).where('id', '=', id).execute();
    resolves.count = 0;
    const again = (await createSnapshotBuilder({ store, urls, renderers: fast }).build(null)).snapshot;
    expect(jsonOf(again)).toContain(json);
    expect(again.view.reviews.find((r) => r.id === id)?.author.name).toBe('Stored As Is');
    expect(resolves.count).toBe(0);
  });

  // Start-up: each page's JSON is moved into bytes as it is read; multi-byte characters must
  // keep every review's offsets right, in the first build and in a rebuild that copies from it.
  it('reads pages of stored JSON with multi-byte characters into the same bytes as a build from scratch', async () => {
    const texts = ['Très bien, Mike — merci!', 'Drain fixed 👍🏽 quickly', 'Ünïcödé everywhere: 日本語のレビュー'];
    const initial = reviews(23).map((r, i) => (i % 2 === 0 ? { ...r, text: `${texts[i % 3]!} ${r.text}` } : r));
    await store.applyImport({ business: catalog(['Mike']), reviews: initial, replace: false });
    const builder = createSnapshotBuilder({ store, urls, renderers: fast, pageSize: 4 });
    const built = (await builder.build(null)).snapshot;
    await expectSameAsFromScratch(built, store);
    await store.applyImport({ reviews: [{ ...initial[3]!, text: 'Ça marche — 完璧' }], replace: false });
    await expectSameAsFromScratch((await builder.build(built)).snapshot, store);
  });

  it('resolves what a catalog change or an older row left without current JSON, stores it back, and the next start reads it', async () => {
    await store.applyImport({ business: catalog(['Mike']), reviews: reviews(25), replace: false });
    await store.applyImport({ business: catalog(['Mike', 'Rivera']), reviews: [], replace: false });
    // Rows written before migration 0006: no JSON at all.
    await handle.db.updateTable('reviews').set({ public_doc: null, public_key: null }).where('id', '<', 'r000005').execute();
    const version = await store.version();
    resolves.count = 0;
    const first = createSnapshotBuilder({ store, urls, renderers: fast, pageSize: 7 });
    const built = (await first.build(null)).snapshot;
    expect(resolves.count).toBe(25);
    await expectSameAsFromScratch(built, store);
    await first.settled();
    // A cache fill, not a change: no rebuild follows it.
    expect(await store.version()).toBe(version);
    const rows = await store.publishedById(
      reviews(25).map((r) => r.id),
      catalogKey(catalog(['Mike', 'Rivera'])),
    );
    expect(rows.map((r) => ('publicJson' in r ? r.publicJson : null)).sort()).toEqual(jsonOf(built).sort());

    resolves.count = 0;
    const next = (await createSnapshotBuilder({ store, urls, renderers: fast }).build(null)).snapshot;
    expect(resolves.count).toBe(0);
    expect(jsonOf(next)).toEqual(jsonOf(built));
    await expectSameAsFromScratch(next, store);
  });

  it('builds on when the public JSON cannot be stored, and says so', async () => {
    await store.applyImport({ business: catalog([]), reviews: reviews(5), replace: false });
    await handle.db.updateTable('reviews').set({ public_doc: null, public_key: null }).execute();
    const errors: unknown[] = [];
    const failing: ReviewStore = { ...store, storePublic: () => Promise.reject(new Error('database is locked')) };
    const builder = createSnapshotBuilder({ store: failing, urls, renderers: fast, onError: (e) => errors.push(e) });
    const built = (await builder.build(null)).snapshot;
    await builder.close();
    await expectSameAsFromScratch(built, store);
    expect(errors).toEqual([new Error('database is locked')]);
  });
});
