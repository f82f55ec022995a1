import { computeAggregate } from '../domain/aggregate.js';
import { EMPTY_BUSINESS } from '../domain/business.js';
import { createMentionMatcher } from '../domain/mentions.js';
import type { DatasetState } from '../domain/ports.js';
import { toPublicReview } from '../domain/public-review.js';
import type { PublishedView } from '../domain/published-view.js';
import { compareNewest } from '../domain/review-order.js';
import { isPublished, type Review } from '../domain/review.js';
import type { ServiceUrls } from '../domain/urls.js';
import { createRepresentation, type RenderedDocument } from './rendered-document.js';
import type { DocumentRenderer, RenderOutput } from './renderers/document-renderer.js';
import { createSearchIndex, type SearchIndex } from './search-index.js';

/**
 * An immutable, versioned view of the published data with its indexes and rendered documents. Built
 * whole and never changed: a slow document that lands later makes a new snapshot (`withDocument`).
 */
export interface Snapshot {
  version: number;
  view: PublishedView;
  /** Each published review's JSON, in newest-first position order: responses splice these in. */
  reviewJson: readonly string[];
  positionById: ReadonlyMap<string, number>;
  index: SearchIndex;
  documents: ReadonlyMap<string, RenderedDocument>;
  /** Parsed values some renderers return alongside their bytes (the insights document for MCP). */
  values: ReadonlyMap<string, unknown>;
  /** The data version each document was rendered from: older than `version` while a slow one is due. */
  documentVersions: ReadonlyMap<string, number>;
  /** Slow documents with no rendering yet: empty except between a process's start and its first ones. */
  missing: ReadonlySet<string>;
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
  value?: unknown;
}

/** A new snapshot and the slow documents still to land in it (or in a later one). */
export interface SnapshotBuild {
  snapshot: Snapshot;
  slow: Promise<LandedDocument>[];
}

function newestTimestamp(stamps: Iterable<string | null>): string {
  let best = new Date(0).toISOString();
  let bestMs = Date.parse(best);
  for (const s of stamps) {
    const ms = s ? Date.parse(s) : Number.NaN;
    if (ms > bestMs) {
      best = s!;
      bestMs = ms;
    }
  }
  return best;
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
  return {
    business,
    reviews,
    aggregate: computeAggregate(reviews),
    updatedAt: newestTimestamp([state.businessUpdatedAt, ...reviews.map((r) => r.updated_at)]),
    urls,
  };
}

function represent(r: DocumentRenderer, out: RenderOutput) {
  return createRepresentation(out.body, r.contentType, Date.parse(out.lastModified));
}

/**
 * Builds a snapshot from a store state: fast documents now; each slow one (insights) carried over from
 * `previous` until its own rendering lands (`slow`), so publishing never waits for seconds of work and
 * no request ever finds a half-built snapshot.
 */
export function buildSnapshot(
  state: DatasetState,
  urls: ServiceUrls,
  renderers: readonly DocumentRenderer[],
  previous: Snapshot | null = null,
): SnapshotBuild {
  const view = buildView(state, urls);
  const reviewJson = view.reviews.map((r) => JSON.stringify(r));
  const documents = new Map<string, RenderedDocument>();
  const values = new Map<string, unknown>();
  const documentVersions = new Map<string, number>();
  const slow: Promise<LandedDocument>[] = [];
  const missing = new Set<string>();
  for (const r of renderers) {
    if (r.kind === 'fast') {
      const out = r.render({ view, reviewJson });
      documents.set(r.name, represent(r, out));
      if (out.value !== undefined) values.set(r.name, out.value);
      documentVersions.set(r.name, state.version);
      continue;
    }
    const carried = previous?.documents.get(r.name);
    if (carried) {
      documents.set(r.name, carried);
      if (previous!.values.has(r.name)) values.set(r.name, previous!.values.get(r.name));
      documentVersions.set(r.name, previous!.documentVersions.get(r.name) ?? previous!.version);
    } else missing.add(r.name);
    slow.push(
      r.render({ view, reviewJson }).then((out) => ({
        name: r.name,
        version: state.version,
        document: represent(r, out),
        ...(out.value !== undefined ? { value: out.value } : {}),
      })),
    );
  }
  const snapshot: Snapshot = {
    version: state.version,
    view,
    reviewJson,
    positionById: new Map(view.reviews.map((r, i) => [r.id, i])),
    index: createSearchIndex(view.business, view.reviews),
    documents,
    values,
    documentVersions,
    missing,
  };
  return { snapshot, slow };
}

/**
 * A copy of `snapshot` with a slow document that landed, or `snapshot` itself when it already holds
 * that document from the same or a newer data version.
 */
export function withDocument(snapshot: Snapshot, landed: LandedDocument): Snapshot {
  const held = snapshot.documentVersions.get(landed.name);
  if (held !== undefined && held >= landed.version && snapshot.documents.has(landed.name)) return snapshot;
  const documents = new Map(snapshot.documents).set(landed.name, landed.document);
  const values = new Map(snapshot.values);
  if (landed.value !== undefined) values.set(landed.name, landed.value);
  else values.delete(landed.name);
  return {
    ...snapshot,
    documents,
    values,
    documentVersions: new Map(snapshot.documentVersions).set(landed.name, landed.version),
    missing: new Set([...snapshot.missing].filter((name) => name !== landed.name)),
  };
}

/** A snapshot with every document rendered: for one-shot tools and tests, which can wait. */
export async function renderSnapshot(state: DatasetState, urls: ServiceUrls, renderers: readonly DocumentRenderer[]): Promise<Snapshot> {
  const { snapshot, slow } = buildSnapshot(state, urls, renderers);
  let out = snapshot;
  for (const landed of await Promise.all(slow)) out = withDocument(out, landed);
  return out;
}
