import { computeAggregate } from '../domain/aggregate.js';
import { EMPTY_BUSINESS } from '../domain/business.js';
import { canonicalJson, sha256Hex } from '../domain/canonical-json.js';
import { createMentionMatcher, type MentionMatcher } from '../domain/mentions.js';
import type { DatasetHeader, ReviewStamp, ReviewStore } from '../domain/ports.js';
import { toPublicReview } from '../domain/public-review.js';
import type { PublishedView } from '../domain/published-view.js';
import { compareNewest } from '../domain/review-order.js';
import { isPublished, type Review } from '../domain/review.js';
import type { ServiceUrls } from '../domain/urls.js';
import type { DocumentRenderer } from './renderers/document-renderer.js';
import { assembleSnapshot, type RenderedDocuments, type SeededDocument, type Snapshot, type SnapshotBuild } from './snapshot.js';
import { createTimeSlicer, type TimeSlicer } from './time-slice.js';

/** One published review as the last build saw it: its public form and JSON, and the hash they came from. */
interface Entry {
  id: string;
  contentHash: string;
  review: Review;
  json: string;
  updatedMs: number;
  /** The build that last found it published and unchanged (or read it). */
  seen: number;
}

export interface SnapshotBuilderOptions {
  store: Pick<ReviewStore, 'header' | 'publishedStamps' | 'reviewsById' | 'version'>;
  urls: ServiceUrls;
  renderers: readonly DocumentRenderer[];
  /** Milliseconds of work between yields to the event loop (time-slice.ts). */
  sliceMs?: number;
  /** Stamps read per query, and records per query for changed reviews. */
  pageSize?: number;
  /** Slow documents an earlier process rendered, for the first snapshot (the document cache, issue 15). */
  seeded?: ReadonlyMap<string, SeededDocument>;
}

export interface SnapshotBuilder {
  /**
   * Reads what changed since the last build and assembles the next snapshot, yielding between slices.
   * `onDocuments` is told its documents once rendered, before the indexes (issue 15, fan-out).
   */
  build(previous: Snapshot | null, onDocuments?: (rendered: RenderedDocuments) => void): Promise<SnapshotBuild>;
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
 * Builds each snapshot from the previous one's work (issue 11, M2; issue 15 start-up): a rebuild reads
 * every published review's id and content hash, fetches and serializes only the reviews that changed,
 * and reuses the rest (their public form, JSON and position in the newest-first order). Mentions are
 * resolved against the catalog, so a changed business starts from scratch. All of it runs in time
 * slices, so the previous snapshot keeps answering requests while the next one is built.
 */
export function createSnapshotBuilder(options: SnapshotBuilderOptions): SnapshotBuilder {
  // A page of stamps is one synchronous SQLite read: about 15 ms for 2,000 on a small machine.
  const pageSize = options.pageSize ?? 2000;
  const entries = new Map<string, Entry>();
  let order: Entry[] = [];
  let catalogKey: string | null = null;
  let generation = 0;

  /** Reads the stamps, marks the unchanged entries seen, returns the stamps of the rest. */
  async function staleStamps(slicer: TimeSlicer): Promise<ReviewStamp[]> {
    const stale: ReviewStamp[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await options.store.publishedStamps(after, pageSize);
      for (const s of page) {
        const e = entries.get(s.id);
        if (e && e.contentHash === s.contentHash) e.seen = generation;
        else stale.push(s);
      }
      if (page.length < pageSize) return stale;
      after = page[page.length - 1]!.id;
      await slicer.pause();
    }
  }

  async function readChanged(stale: ReviewStamp[], matcher: MentionMatcher, fresh: Entry[], slicer: TimeSlicer): Promise<void> {
    for (let i = 0; i < stale.length; i += pageSize) {
      const batch = stale.slice(i, i + pageSize);
      const hashes = new Map(batch.map((s) => [s.id, s.contentHash]));
      for (const stored of await options.store.reviewsById(batch.map((s) => s.id))) {
        // Unpublished since its stamp was read: the version check below makes another pass.
        if (!isPublished(stored)) continue;
        const review = toPublicReview(stored, matcher);
        const entry: Entry = {
          id: review.id,
          contentHash: hashes.get(review.id)!,
          review,
          json: JSON.stringify(review),
          updatedMs: Date.parse(review.updated_at),
          seen: generation,
        };
        entries.set(entry.id, entry);
        fresh.push(entry);
        if (slicer.due()) await slicer.pause();
      }
    }
  }

  /**
   * Brings the cache to one version of the store. Pages are read without a transaction (readers never
   * wait for an import), so a write that commits mid-read is detected by the counter and read in another
   * pass, which fetches only what that write changed: no snapshot mixes two versions.
   */
  async function sync(slicer: TimeSlicer): Promise<{ header: DatasetHeader; fresh: Entry[] }> {
    const fresh: Entry[] = [];
    for (let pass = 0; ; pass++) {
      const header = await options.store.header();
      const business = header.business ?? EMPTY_BUSINESS;
      const key = sha256Hex(canonicalJson(business));
      if (key !== catalogKey) {
        entries.clear();
        order = [];
        fresh.length = 0;
        catalogKey = key;
      }
      generation++;
      const stale = await staleStamps(slicer);
      await readChanged(stale, createMentionMatcher(business), fresh, slicer);
      // After a few passes under a stream of writes, publish what was read: labelled with the version
      // read first, it is at worst newer than its label, and the next poll rebuilds.
      if ((await options.store.version()) === header.version || pass >= 2) return { header, fresh };
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
      const reviewJson = order.map((e) => e.json);
      await slicer.pause();
      let newest = header.businessUpdatedAt;
      let newestMs = newest ? Date.parse(newest) : Number.NEGATIVE_INFINITY;
      for (const e of order) {
        if (e.updatedMs > newestMs) {
          newest = e.review.updated_at;
          newestMs = e.updatedMs;
        }
      }
      const view: PublishedView = {
        business: header.business ?? EMPTY_BUSINESS,
        reviews,
        aggregate: computeAggregate(reviews),
        updatedAt: newest ?? new Date(0).toISOString(),
        urls: options.urls,
      };
      return assembleSnapshot({ view, reviewJson, version: header.version, changedAt: header.changedAt }, options.renderers, previous, {
        slicer,
        seeded: options.seeded,
        onDocuments,
      });
    },
  };
}
