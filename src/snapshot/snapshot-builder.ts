import { EMPTY_BUSINESS, type Business } from '../domain/business.js';
import { catalogKey } from '../domain/catalog-key.js';
import { createMentionMatcher, type MentionMatcher } from '../domain/mentions.js';
import type { DatasetHeader, PublicDoc, PublishedRecord, ReviewStamp, ReviewStore } from '../domain/ports.js';
import { toPublicReview } from '../domain/public-review.js';
import { publishedView } from '../domain/published-view.js';
import { compareNewest } from '../domain/review-order.js';
import type { Review } from '../domain/review.js';
import type { ServiceUrls } from '../domain/urls.js';
import { createPublicDocFill } from './public-doc-fill.js';
import type { DocumentRenderer } from './renderers/document-renderer.js';
import type { ReviewBytes, ReviewSource } from './review-bytes.js';
import {
  assembleSnapshot,
  lastChange,
  type RenderedDocuments,
  type SeededDocument,
  type Snapshot,
  type SnapshotBuild,
} from './snapshot.js';
import type { MemoBudgets } from './snapshot-memo.js';
import { createTimeSlicer, type TimeSlicer } from './time-slice.js';

/**
 * One published review as the last build saw it: its public form, the hash it came from, and its JSON:
 * a string when this process computed it, bytes in the page it was read with when read, and once a
 * build has written it into a document, only its position there (to save memory: the bytes are held once, in
 * the `/reviews.json` document, and a rebuild copies them from it).
 */
interface Entry {
  id: string;
  contentHash: string;
  review: Review;
  json: string | null;
  /** The bytes of the page it was read with (its JSON at `at`..`end`), until a build copies them. */
  page: Buffer | null;
  /** Its position in the last build's review bytes, when `json` and `page` are null. */
  at: number;
  end: number;
  updatedMs: number;
  /** The build that last found it published and unchanged (or read it). */
  seen: number;
}

export interface SnapshotBuilderOptions {
  store: Pick<ReviewStore, 'header' | 'publishedStamps' | 'publishedById' | 'publishedPage' | 'storePublic' | 'version'>;
  urls: ServiceUrls;
  renderers: readonly DocumentRenderer[];
  /** Milliseconds of work between yields to the event loop (time-slice.ts). */
  sliceMs?: number;
  /** Stamps read per query, and records per query for changed reviews. */
  pageSize?: number;
  /** Slow documents an earlier process rendered, for the first snapshot (the document cache). */
  seeded?: ReadonlyMap<string, SeededDocument>;
  /** When a process's first snapshot may build its indexes in the background (snapshot.ts). */
  indexesAfter?: Promise<unknown>;
  /** A failure to store the public JSON a build computed: logged, the next start computes it again. */
  onError?(error: unknown): void;
  /** The byte budgets of each snapshot's memo (configuration: SEARCH_CACHE_BYTES, ...). */
  budgets?: Readonly<MemoBudgets>;
}

export interface SnapshotBuilder {
  /**
   * Reads what changed since the last build and assembles the next snapshot, yielding between slices.
   * `onDocuments` is told its documents once rendered, before the indexes, so the WebSub fan-out starts early.
   */
  build(previous: Snapshot | null, onDocuments?: (rendered: RenderedDocuments) => void): Promise<SnapshotBuild>;
  /** Settles when the public JSON computed so far is stored (or failed): it is stored in the background. */
  settled(): Promise<void>;
  /** Stores nothing more and waits for the write under way (the store is about to close). */
  close(): Promise<void>;
}

/** The catalog of one pass: its key, and its matcher, built only when a review needs resolving. */
interface Catalog {
  key: string;
  matcher(): MentionMatcher;
}

function catalogOf(business: Business): Catalog {
  let matcher: MentionMatcher | undefined;
  return { key: catalogKey(business), matcher: () => (matcher ??= createMentionMatcher(business)) };
}

/**
 * Moves a page of entries' JSON from strings into one buffer (start-up time): a first start reads
 * every review, and 100,000 JSON strings (70 MB) held until the document is written survived the young
 * generation's collections and were copied by each of them; a page's strings now die with the page, and
 * the document copies the bytes.
 */
function toPageBytes(page: Entry[]): void {
  let total = 0;
  for (const e of page) total += Buffer.byteLength(e.json!, 'utf8');
  const bytes = Buffer.allocUnsafe(total);
  let at = 0;
  for (const e of page) {
    e.at = at;
    // Buffer#write, not encodeInto into a view: see review-bytes.ts.
    at += bytes.write(e.json!, at);
    e.end = at;
    e.page = bytes;
    e.json = null;
  }
}

/** `newest` (contract §4) over entries, with updated_at parsed once per review, not per comparison. */
function newestFirst(a: Entry, b: Entry): number {
  if (a.review.date !== b.review.date) return a.review.date < b.review.date ? 1 : -1;
  return b.updatedMs - a.updatedMs || compareNewest(a.review, b.review);
}

/** Both lists sorted newest first: one list, in order. */
function merge(kept: Entry[], added: Entry[]): Entry[] {
  if (added.length === 0) return kept;
  const out: Entry[] = new Array<Entry>(kept.length + added.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < kept.length && j < added.length) out[k++] = newestFirst(kept[i]!, added[j]!) <= 0 ? kept[i++]! : added[j++]!;
  while (i < kept.length) out[k++] = kept[i++]!;
  while (j < added.length) out[k++] = added[j++]!;
  return out;
}

/**
 * Builds each snapshot from the previous one's work (no request stalls, a faster start-up): a rebuild reads
 * every published review's id and content hash, fetches only the reviews that changed, and reuses the
 * rest (their public form, JSON and position in the newest-first order). A fetched review comes with its
 * stored public JSON when that was resolved against the current catalog (the import stores it), else it
 * is resolved and serialized here and stored back. Mentions are resolved against the catalog, so a
 * changed business starts from scratch. All of it runs in time
 * slices, so the previous snapshot keeps answering requests while the next one is built.
 */
export function createSnapshotBuilder(options: SnapshotBuilderOptions): SnapshotBuilder {
  // A page of stamps is one synchronous SQLite read: about 15 ms for 2,000 on a small machine.
  const pageSize = options.pageSize ?? 2000;
  const entries = new Map<string, Entry>();
  let order: Entry[] = [];
  // The reviews' bytes of the last build: where the entries without a string find their JSON.
  let lastBytes: ReviewBytes | null = null;
  let currentKey: string | null = null;
  let generation = 0;
  const fill = createPublicDocFill(options.store, options.onError ? { onError: options.onError } : {});

  /**
   * Reads the stamps, marks the unchanged entries seen (those of the cache, or read by an earlier pass of
   * this build), returns the stamps of the rest.
   */
  async function staleStamps(read: ReadonlyMap<string, Entry>, slicer: TimeSlicer): Promise<ReviewStamp[]> {
    const stale: ReviewStamp[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await options.store.publishedStamps(after, pageSize);
      for (const s of page) {
        const e = read.get(s.id) ?? entries.get(s.id);
        if (e && e.contentHash === s.contentHash) e.seen = generation;
        else stale.push(s);
      }
      if (page.length < pageSize) return stale;
      after = page[page.length - 1]!.id;
      await slicer.pause();
    }
  }

  /**
   * Takes a page of published rows into `read`: the public JSON stored for this catalog as is (start-up time:
   * a start parses, it neither resolves nor serializes), the others resolved and serialized here and
   * stored for next time. The hash is the row's, so the entry names what it holds.
   */
  async function take(rows: PublishedRecord[], catalog: Catalog, read: Map<string, Entry>, slicer: TimeSlicer): Promise<void> {
    const computed: PublicDoc[] = [];
    const page: Entry[] = [];
    for (const row of rows) {
      let review: Review;
      let json: string;
      if ('publicJson' in row) {
        json = row.publicJson;
        review = JSON.parse(json) as Review;
      } else {
        review = toPublicReview(row.stored, catalog.matcher());
        json = JSON.stringify(review);
        computed.push({ id: row.id, contentHash: row.contentHash, updatedAt: row.stored.updated_at, json });
      }
      const entry: Entry = {
        id: row.id,
        contentHash: row.contentHash,
        review,
        json,
        page: null,
        at: -1,
        end: -1,
        updatedMs: Date.parse(review.updated_at),
        seen: generation,
      };
      read.set(entry.id, entry);
      page.push(entry);
      if (slicer.due()) await slicer.pause();
    }
    fill.add(catalog.key, computed);
    toPageBytes(page);
  }

  /**
   * Reads the changed reviews. Only published rows come back: one unpublished since its stamp was read
   * is left out, and the version check in `sync` makes another pass.
   */
  async function readChanged(stale: ReviewStamp[], catalog: Catalog, read: Map<string, Entry>, slicer: TimeSlicer): Promise<void> {
    for (let i = 0; i < stale.length; i += pageSize) {
      const ids = stale.slice(i, i + pageSize).map((s) => s.id);
      await take(await options.store.publishedById(ids, catalog.key), catalog, read, slicer);
    }
  }

  /**
   * Reads every published review, in pages in id order: with nothing to reuse (a process's first build,
   * or a catalog change) every stamp would be stale, and one pass over the rows costs about half of the
   * stamps and then each id (at start-up, 100,000 reviews: about 620 → 270 ms of SQLite's CPU).
   */
  async function readAll(catalog: Catalog, read: Map<string, Entry>, slicer: TimeSlicer): Promise<void> {
    let after: string | null = null;
    for (;;) {
      const rows = await options.store.publishedPage(after, pageSize, catalog.key);
      await take(rows, catalog, read, slicer);
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1]!.id;
      await slicer.pause();
    }
  }

  /**
   * Brings the cache to one version of the store. Pages are read without a transaction (readers never
   * wait for an import), so a write that commits mid-read is detected by the counter and read in another
   * pass, which fetches only what that write changed: no snapshot mixes two versions. What is read joins
   * the cache only when the sync succeeds: after a failed read the cache still describes the last
   * build, so the next build reads those reviews again instead of taking them for unchanged.
   */
  async function sync(slicer: TimeSlicer): Promise<{ header: DatasetHeader; fresh: Entry[] }> {
    const read = new Map<string, Entry>();
    for (let pass = 0; ; pass++) {
      const header = await options.store.header();
      const catalog = catalogOf(header.business ?? EMPTY_BUSINESS);
      if (catalog.key !== currentKey) {
        entries.clear();
        order = [];
        lastBytes = null;
        read.clear();
        currentKey = catalog.key;
      }
      generation++;
      if (entries.size === 0 && read.size === 0) await readAll(catalog, read, slicer);
      else await readChanged(await staleStamps(read, slicer), catalog, read, slicer);
      // After a few passes under a stream of writes, publish what was read: labelled with the version
      // read first, it is at worst newer than its label, and the next poll rebuilds.
      if ((await options.store.version()) === header.version || pass >= 2) {
        for (const [id, e] of read) entries.set(id, e);
        return { header, fresh: [...read.values()] };
      }
    }
  }

  return {
    async build(previous, onDocuments) {
      const slicer = createTimeSlicer(options.sliceMs);
      const { header, fresh } = await sync(slicer);
      const current = (e: Entry) => e.seen === generation && entries.get(e.id) === e;
      for (const [id, e] of entries) if (e.seen !== generation) entries.delete(id);
      await slicer.pause();
      const kept = order.filter(current);
      const added = fresh.filter(current).sort(newestFirst);
      await slicer.pause();
      order = merge(kept, added);
      await slicer.pause();

      const reviews = order.map((e) => e.review);
      const reviewSources: ReviewSource[] = order.map((e) => e.json ?? e.page?.subarray(e.at, e.end) ?? lastBytes!.bytes(e.at));
      await slicer.pause();
      let newest = header.businessUpdatedAt;
      let newestMs = newest ? Date.parse(newest) : Number.NEGATIVE_INFINITY;
      for (const e of order) {
        if (e.updatedMs > newestMs) {
          newest = e.review.updated_at;
          newestMs = e.updatedMs;
        }
      }
      const view = publishedView({
        business: header.business ?? EMPTY_BUSINESS,
        reviews,
        updatedAt: lastChange([newest], header.changedAt),
        urls: options.urls,
      });
      const built = await assembleSnapshot(
        { view, reviewSources, version: header.version, changedAt: header.changedAt },
        options.renderers,
        previous,
        {
          slicer,
          ...(options.seeded ? { seeded: options.seeded } : {}),
          ...(onDocuments ? { onDocuments } : {}),
          ...(options.indexesAfter ? { indexesAfter: options.indexesAfter } : {}),
          ...(options.budgets ? { budgets: options.budgets } : {}),
        },
      );
      // From now on each entry's JSON is read from the new document: the strings can go.
      const bytes = built.snapshot.reviewBytes;
      for (let i = 0; i < order.length; i++) {
        const e = order[i]!;
        e.json = null;
        e.page = null;
        e.at = i;
      }
      lastBytes = bytes;
      return built;
    },
    settled: () => fill.settled(),
    close: () => fill.close(),
  };
}
