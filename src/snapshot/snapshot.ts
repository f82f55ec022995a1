import { EMPTY_BUSINESS } from '../domain/business.js';
import { createMentionMatcher } from '../domain/mentions.js';
import type { DatasetState } from '../domain/ports.js';
import { toPublicReview } from '../domain/public-review.js';
import { publishedView, type PublishedView } from '../domain/published-view.js';
import { compareNewest } from '../domain/review-order.js';
import { isPublished, type Review } from '../domain/review.js';
import type { ServiceUrls } from '../domain/urls.js';
import { createRepresentation, withDate, type RenderedDocument } from './rendered-document.js';
import { datasetEnds } from './renderers/dataset.js';
import type { DocumentRenderer } from './renderers/document-renderer.js';
import { writeReviewBytes, type ReviewBytes, type ReviewSource } from './review-bytes.js';
import { searchIndexSteps, type SearchIndex } from './search-index.js';
import { createSnapshotMemo, DEFAULT_MEMO_BUDGETS, type MemoBudgets, type SnapshotMemo } from './snapshot-memo.js';
import { createTimeSlicer, runDeferred, runSliced, UNSLICED, type TimeSlicer } from './time-slice.js';

/**
 * An immutable, versioned view of the published data with its indexes and rendered documents. Built
 * whole and never changed: a slow document that lands later makes a new snapshot (`withDocument`).
 */
export interface Snapshot {
  version: number;
  view: PublishedView;
  /** Each published review's JSON, in newest-first position order, held once: responses copy slices of it. */
  reviewBytes: ReviewBytes;
  /** A review's position by id, or undefined when it is not published. */
  positionOf(id: string): number | undefined;
  index: SearchIndex;
  documents: ReadonlyMap<string, RenderedDocument>;
  /** The data version each document was rendered from: older than `version` while a slow one is due. */
  documentVersions: ReadonlyMap<string, number>;
  /** Slow documents with no rendering yet: empty except between a process's start and its first ones. */
  missing: ReadonlySet<string>;
  /**
   * When this snapshot's data was published (ms, whole seconds): the Last-Modified of every answer
   * computed from it. Never earlier than the previous snapshot's, never in the future (docs/decisions.md, Operations).
   */
  publishedAt: number;
  /** The previous snapshot was published in the same second: dates alone cannot tell them apart. */
  publishedWeak: boolean;
  /**
   * What is kept of the answers computed from this snapshot, within the configured budgets
   * (snapshot-memo.ts): it goes with the snapshot, so nothing outlives the data it came from.
   */
  memo: SnapshotMemo;
}

/**
 * The publication time of a new snapshot: when its change was committed (the store's changed_at, the
 * same on every replica), clamped to now and to the previous snapshot's time. Record fields such as
 * updated_at never decide it: hiding a review must not move Last-Modified back, and an imported
 * `updated_at` in 2099 must not pin it there.
 */
export function publicationTime(
  state: Pick<DatasetState, 'changedAt'>,
  view: PublishedView,
  previous: Snapshot | null,
  now = Date.now(),
): number {
  const committed = state.changedAt ? Date.parse(state.changedAt) : Date.parse(view.updatedAt);
  const at = Math.min(Number.isNaN(committed) ? now : committed, now);
  return Math.floor(Math.max(at, previous?.publishedAt ?? 0) / 1000) * 1000;
}

/**
 * A document's validators: its previous Last-Modified while its bytes are unchanged, the publication
 * time when they changed (a weak date when that is the same second as before).
 */
function dated(body: string | Buffer, contentType: string, before: RenderedDocument | undefined, publishedAt: number): RenderedDocument {
  // SHA-256 on the event loop: about 20 ms for the 29 MB reviews.json of 50k reviews (the CPU's SHA
  // instructions); WebCrypto's digest, tried to take it off the loop, blocked it for 150 ms instead.
  const fresh = createRepresentation(body, contentType, publishedAt);
  if (!before) return fresh;
  if (before.etag === fresh.etag) return withDate(fresh, before.lastModified, before.weakDate ?? false);
  const lastModified = Math.max(publishedAt, before.lastModified);
  return withDate(fresh, lastModified, lastModified === before.lastModified);
}

/** What the transports read: the current snapshot (SnapshotManager, or a fixed one in tests). */
export interface SnapshotSource {
  current(): Snapshot;
  /**
   * Only at a cold start, while `current().missing` is not empty: resolves once the first slow documents
   * exist (bounded by the manager). A source without it serves what it has.
   */
  rendered?(): Promise<Snapshot>;
}

/** The current snapshot with every document, waiting only in a cold start's first seconds. */
export async function completeSnapshot(source: SnapshotSource): Promise<Snapshot> {
  const snapshot = source.current();
  return snapshot.missing.size === 0 || !source.rendered ? snapshot : source.rendered();
}

/** A slow document rendered for a data version, ready to replace an older one (`withDocument`). */
export interface LandedDocument {
  name: string;
  version: number;
  document: RenderedDocument;
  /** The renderer's hash of its inputs, when it gives one: what the document cache stores it under. */
  inputHash?: string;
}

/**
 * A slow document an earlier process rendered (the document cache), carried into a process's
 * first snapshot like a previous snapshot's: served at once, replaced when this process's rendering lands.
 */
export interface SeededDocument {
  document: RenderedDocument;
}

/** The data version of a seeded document: older than any, so the first rendering always replaces it. */
export const SEEDED_VERSION = -1;

/**
 * A build's documents as soon as its fast ones are rendered, before its indexes are built (for the
 * WebSub fan-out): the same representations its snapshot will hold, so the same bytes and ETags. Announced,
 * not published: readers keep the previous snapshot until the whole new one is swapped in.
 */
export interface RenderedDocuments {
  /** The data version of the build (the snapshot's `version`). */
  version: number;
  documents: ReadonlyMap<string, RenderedDocument>;
}

/** A new snapshot and the slow documents still to land in it (or in a later one). */
export interface SnapshotBuild {
  snapshot: Snapshot;
  slow: Promise<LandedDocument>[];
}

/**
 * The published data's last change as its documents show it (`updated_at` of /reviews.json, Atom's
 * `<updated>`, the sitemap's `lastmod`): the newest of `stamps`, but never later than the commit of the
 * change that is being published (`committedAt`, the store's changed_at, the same on every replica), so
 * a record's `updated_at` in 2099 does not date the whole dataset in 2099. The headers' Last-Modified
 * follows its own rule (`publicationTime`).
 */
export function lastChange(stamps: Iterable<string | null>, committedAt?: string | null): string {
  let best = new Date(0).toISOString();
  let bestMs = Date.parse(best);
  for (const s of stamps) {
    const ms = s ? Date.parse(s) : Number.NaN;
    if (ms > bestMs) {
      best = s!;
      bestMs = ms;
    }
  }
  const limit = committedAt ? Date.parse(committedAt) : Number.NaN;
  return limit < bestMs ? new Date(limit).toISOString() : best;
}

/**
 * `reviews.sort(compareNewest)` with each updated_at parsed once instead of on every comparison (the
 * same total order: it ends on the unique id, so the result does not depend on the algorithm).
 */
function sortNewest(reviews: Review[]): Review[] {
  const keyed = reviews.map((r) => ({ r, t: Date.parse(r.updated_at) }));
  keyed.sort((a, b) => {
    if (a.r.date !== b.r.date) return a.r.date < b.r.date ? 1 : -1;
    return b.t - a.t || compareNewest(a.r, b.r);
  });
  return keyed.map((k) => k.r);
}

/** The published data of a store state: the one place mentions are resolved against the catalog. */
export function buildView(state: DatasetState, urls: ServiceUrls): PublishedView {
  const business = state.business ?? EMPTY_BUSINESS;
  const matcher = createMentionMatcher(business);
  const reviews: Review[] = sortNewest(state.reviews.filter(isPublished).map((r) => toPublicReview(r, matcher)));
  return publishedView({
    business,
    reviews,
    updatedAt: lastChange([state.businessUpdatedAt, ...reviews.map((r) => r.updated_at)], state.changedAt),
    urls,
  });
}

/** What a snapshot is assembled from: the published view, its reviews' JSON and the change it reflects. */
export interface SnapshotParts {
  view: PublishedView;
  /** Each published review's JSON (a string, or bytes of the previous document), in the view's order. */
  reviewSources: readonly ReviewSource[];
  version: number;
  /** When the change was committed (the store's changed_at): the publication time derives from it. */
  changedAt?: string | null | undefined;
}

/**
 * Builds a snapshot from a store state: fast documents now; each slow one (insights) carried over from
 * `previous` until its own rendering lands (`slow`), so publishing never waits for seconds of work and
 * no request ever finds a half-built snapshot. A process's first snapshot carries the `seeded` ones.
 */
export function buildSnapshot(
  state: DatasetState,
  urls: ServiceUrls,
  renderers: readonly DocumentRenderer[],
  previous: Snapshot | null = null,
  now = Date.now(),
  seeded: ReadonlyMap<string, SeededDocument> = new Map(),
  budgets: Readonly<MemoBudgets> = DEFAULT_MEMO_BUDGETS,
): Promise<SnapshotBuild> {
  const view = buildView(state, urls);
  const reviewSources = view.reviews.map((r) => JSON.stringify(r));
  const parts = { view, reviewSources, version: state.version, changedAt: state.changedAt };
  return assembleSnapshot(parts, renderers, previous, { now, seeded, budgets });
}

/** The indexes a snapshot answers lookups with: positions by id, and the search index. */
function* lookupSteps(view: PublishedView): Generator<void, { positions: ReadonlyMap<string, number>; index: SearchIndex }> {
  const positions = new Map<string, number>();
  for (let i = 0; i < view.reviews.length; i++) {
    positions.set(view.reviews[i]!.id, i);
    if ((i & 4095) === 4095) yield;
  }
  yield;
  return { positions, index: yield* searchIndexSteps(view.business, view.reviews) };
}

/** How a snapshot is assembled: all optional. */
export interface AssembleOptions {
  /** Where the work yields to the event loop, so requests are not stalled; UNSLICED when absent. */
  slicer?: TimeSlicer;
  /** The clock the publication time is clamped to. */
  now?: number;
  /** Slow documents an earlier process rendered, for a first snapshot (the document cache). */
  seeded?: ReadonlyMap<string, SeededDocument>;
  /** The byte budgets of the snapshot's memo (configuration); the defaults when absent. */
  budgets?: Readonly<MemoBudgets>;
  /**
   * Told the rendered documents before the indexes are built: the WebSub hub starts
   * delivering the new topic bytes while the rest of the build runs. Called at most once, synchronously.
   */
  onDocuments?(rendered: RenderedDocuments): void;
  /**
   * A first snapshot (no `previous`, sliced) builds its indexes in the background once this settles:
   * the server's start-up work (its routes, its listening socket) comes first.
   */
  indexesAfter?: Promise<unknown>;
}

/** The documents of a build: the fast ones rendered now, the slow ones carried (or missing) while they render. */
async function renderDocuments(
  build: { view: PublishedView; version: number; reviewBytes: ReviewBytes; publishedAt: number },
  renderers: readonly DocumentRenderer[],
  previous: Snapshot | null,
  seeded: ReadonlyMap<string, SeededDocument>,
  slicer: TimeSlicer,
) {
  const { view, version, reviewBytes, publishedAt } = build;
  const documents = new Map<string, RenderedDocument>();
  const documentVersions = new Map<string, number>();
  const slow: Promise<LandedDocument>[] = [];
  const missing = new Set<string>();
  for (const r of renderers) {
    if (r.kind === 'fast') {
      const out = await r.render({ view, reviewBytes, slicer });
      documents.set(r.name, dated(out.body, r.contentType, previous?.documents.get(r.name), publishedAt));
      documentVersions.set(r.name, version);
      await slicer.pause();
      continue;
    }
    const seed = previous ? undefined : seeded.get(r.name);
    const carried = previous?.documents.get(r.name) ?? seed?.document;
    if (carried) {
      documents.set(r.name, carried);
      documentVersions.set(r.name, previous ? (previous.documentVersions.get(r.name) ?? previous.version) : SEEDED_VERSION);
    } else missing.add(r.name);
    slow.push(
      r.render({ view, reviewBytes, slicer, background: carried !== undefined }).then((out) => ({
        name: r.name,
        version,
        document: dated(out.body, r.contentType, carried, publishedAt),
        ...(out.inputHash !== undefined ? { inputHash: out.inputHash } : {}),
      })),
    );
  }
  return { documents, documentVersions, slow, missing };
}

/**
 * The positions-by-id map and the search index of a view. A rebuild builds and warms them before it is
 * published, while the previous snapshot serves; one-shot tools build them and warm nothing. A
 * process's first snapshot is published as soon as its documents are (the indexes were about a sixth of
 * a 100k start): they are built in slices right after, and a lookup that comes first finishes them on
 * its own request.
 */
async function buildIndexes(
  view: PublishedView,
  previous: Snapshot | null,
  slicer: TimeSlicer,
  indexesAfter: Promise<unknown> | undefined,
) {
  const lookups = lookupSteps(view);
  if (previous || slicer === UNSLICED) {
    const built = await runSliced(lookups, slicer);
    if (previous) await built.index.warm(slicer);
    return { positions: () => built.positions, index: built.index };
  }
  const later = runDeferred(lookups, createTimeSlicer(), indexesAfter);
  void later.done.then((built) => built.index.warm(createTimeSlicer())).catch(() => undefined);
  const index: SearchIndex = {
    search: (query) => later.get().index.search(query),
    warm: async (warmSlicer) => (await later.done).index.warm(warmSlicer),
  };
  return { positions: () => later.get().positions, index };
}

/**
 * Renders the documents and indexes of a view into a snapshot. With a real `slicer` it yields to the
 * event loop between slices of work: the caller's previous snapshot serves meanwhile.
 * Without a previous snapshot, the `seeded` slow documents (the document cache) are carried.
 */
export async function assembleSnapshot(
  parts: SnapshotParts,
  renderers: readonly DocumentRenderer[],
  previous: Snapshot | null,
  options: AssembleOptions = {},
): Promise<SnapshotBuild> {
  const { slicer = UNSLICED, now = Date.now(), seeded = new Map<string, SeededDocument>() } = options;
  const { view, version } = parts;
  const publishedAt = publicationTime(parts, view, previous, now);
  // The reviews' bytes, written once into the /reviews.json document they are served in.
  const reviewBytes = await writeReviewBytes(parts.reviewSources, ...datasetEnds(view), slicer);
  const { documents, documentVersions, slow, missing } = await renderDocuments(
    { view, version, reviewBytes, publishedAt },
    renderers,
    previous,
    seeded,
    slicer,
  );
  // A change that left the published data as it was (an edit of an unpublished review, a version bump)
  // publishes nothing: answers keep their dates, so Last-Modified says nothing about unpublished records.
  const unchanged = previous !== null && sameData(previous, reviewBytes, documents);
  // Every document is final here (the slow ones carried or missing): the topic bytes exist, the
  // seconds of index work at 100k reviews come after, so the WebSub fan-out need not wait for them.
  options.onDocuments?.({ version, documents });
  const { positions, index } = await buildIndexes(view, previous, slicer, options.indexesAfter);
  const snapshot: Snapshot = {
    version,
    view,
    reviewBytes,
    positionOf: (id) => positions().get(id),
    index,
    documents,
    documentVersions,
    missing,
    publishedAt: unchanged ? previous.publishedAt : publishedAt,
    publishedWeak: unchanged
      ? previous.publishedWeak
      : previous !== null && previous.version !== version && previous.publishedAt === publishedAt,
    memo: createSnapshotMemo(options.budgets ?? DEFAULT_MEMO_BUDGETS),
  };
  return { snapshot, slow };
}

/**
 * Whether a new build's published data is the previous snapshot's: its reviews document (the bytes of
 * /reviews.json: the business, the aggregate and every published review) is the same. Compared by the
 * documents' tags when the dataset renderer made them, else byte for byte.
 */
function sameData(previous: Snapshot, reviewBytes: ReviewBytes, documents: ReadonlyMap<string, RenderedDocument>): boolean {
  const datasetOf = (bytes: ReviewBytes, docs: ReadonlyMap<string, RenderedDocument>) =>
    [...docs.values()].find((d) => d.body === bytes.document);
  const now = datasetOf(reviewBytes, documents);
  const before = datasetOf(previous.reviewBytes, previous.documents);
  if (now && before) return now.etag === before.etag;
  return previous.reviewBytes.document.equals(reviewBytes.document);
}

/**
 * A copy of `snapshot` with a slow document that landed, or `snapshot` itself when it already holds
 * that document from the same or a newer data version.
 */
export function withDocument(snapshot: Snapshot, landed: LandedDocument): Snapshot {
  const held = snapshot.documentVersions.get(landed.name);
  if (held !== undefined && held >= landed.version && snapshot.documents.has(landed.name)) return snapshot;
  const documents = new Map(snapshot.documents).set(landed.name, landed.document);
  return {
    ...snapshot,
    documents,
    documentVersions: new Map(snapshot.documentVersions).set(landed.name, landed.version),
    missing: new Set([...snapshot.missing].filter((name) => name !== landed.name)),
    memo: snapshot.memo.forNewDocuments(),
  };
}
