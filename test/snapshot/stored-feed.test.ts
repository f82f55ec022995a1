import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentCacheStore, ReviewStore } from '../../src/domain/ports.js';
import type { PublishedView } from '../../src/domain/published-view.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import type * as Atom from '../../src/feeds/atom.js';
import { writeReviewBytes } from '../../src/snapshot/review-bytes.js';
import { ATOM_CODE_VERSION, atomInputHash, createAtomRenderer } from '../../src/snapshot/renderers/feeds.js';
import { buildView } from '../../src/snapshot/snapshot.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createDocumentCacheStore } from '../../src/storage/document-cache-store.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { business, review, reviews } from '../storage/fixtures.js';

// Counts the Atom feeds written with the XML builder: a stored rendering must spare the writer.
const writes = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/feeds/atom.js', async (importOriginal) => {
  const real = await importOriginal<typeof Atom>();
  return {
    ...real,
    renderAtomFeed: (...args: Parameters<typeof real.renderAtomFeed>) => {
      writes.count++;
      return real.renderAtomFeed(...args);
    },
  };
});

const urls = createServiceUrls('http://127.0.0.1:8080');

/**
 * Start-up: the Atom feed's last rendering is kept with the hash of everything it is rendered
 * from, so a start with unchanged inputs serves those bytes without loading the XML builder, and any
 * change of an input renders it again (a stored derived document is never served stale).
 */
describe('the stored Atom feed', () => {
  let handle: DatabaseHandle;
  let store: ReviewStore;
  let documents: DocumentCacheStore;
  beforeEach(async () => {
    handle = await openDatabase('sqlite::memory:');
    store = createReviewStore(handle.db);
    documents = createDocumentCacheStore(handle.db);
    writes.count = 0;
  });
  afterEach(() => handle.close());

  async function view(): Promise<PublishedView> {
    return buildView(await store.load(), urls);
  }

  /** One process's rendering: a fresh renderer over the same store, as after a restart. */
  async function render(v: PublishedView): Promise<string> {
    const renderer = createAtomRenderer({ store: documents, onCacheError: (e) => expect.fail(String(e)) });
    const reviewBytes = await writeReviewBytes(
      v.reviews.map((r) => JSON.stringify(r)),
      '[',
      ']',
    );
    const out = await renderer.render({ view: v, reviewBytes });
    await renderer.close();
    return String(out.body);
  }

  /** The feed written from scratch by the writer itself. */
  async function fromScratch(v: PublishedView): Promise<string> {
    const { renderAtomFeed } = await vi.importActual<typeof Atom>('../../src/feeds/atom.js');
    return renderAtomFeed(v);
  }

  it('serves the stored bytes after a restart with the same inputs, without writing the feed again', async () => {
    await store.applyImport({ business: business(), reviews: reviews(60), replace: false });
    const first = await render(await view());
    expect(first).toBe(await fromScratch(await view()));
    expect(writes.count).toBe(1);

    // Taken as it is (a rendering would not hold this marker): the writer did not run.
    const stored = (await documents.read('feed.xml'))!;
    await documents.write({ ...stored, body: stored.body.replace('</feed>', '<!-- stored --></feed>') });
    expect(await render(await view())).toContain('<!-- stored -->');
    expect(writes.count).toBe(1);
  });

  it('renders again when anything the feed is rendered from changes', async () => {
    await store.applyImport({ business: business(), reviews: reviews(60), replace: false });
    await render(await view());
    const changes: [string, () => Promise<unknown>][] = [
      ['a newest review', () => store.applyImport({ reviews: [review('new-1', { date: '2026-01-02' })], replace: false })],
      ['an old review', () => store.applyImport({ reviews: [review('old-1', { date: '2001-01-01', rating: 1 })], replace: false })],
      ['the business', () => store.applyImport({ business: business({ name: 'Acme Plumbing & Heating' }), reviews: [], replace: false })],
      // Not in the feed, not the newest change: only the aggregate (the feed's subtitle) moves.
      ['an old review hidden', () => store.applyImport({ reviews: [{ ...reviews(60)[0]!, hidden: true }], replace: false })],
    ];
    for (const [what, change] of changes) {
      await change();
      const before = writes.count;
      const v = await view();
      expect(await render(v), what).toBe(await fromScratch(v));
      expect(writes.count, what).toBe(before + 1);
    }
  });

  it('renders again over a rendering stored by another version of the writer code', async () => {
    await store.applyImport({ business: business(), reviews: reviews(60), replace: false });
    const v = await view();
    await render(v);
    // The same inputs, stored under the key an earlier ATOM_CODE_VERSION gave them.
    const stored = (await documents.read('feed.xml'))!;
    expect(stored.inputHash).toBe(atomInputHash(ATOM_CODE_VERSION, v));
    await documents.write({ ...stored, inputHash: atomInputHash(`${ATOM_CODE_VERSION}-earlier`, v), body: '<feed>old</feed>' });
    const before = writes.count;
    expect(await render(v)).toBe(await fromScratch(v));
    expect(writes.count).toBe(before + 1);
  });
});
