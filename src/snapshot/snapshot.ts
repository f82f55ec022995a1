import { computeAggregate } from '../domain/aggregate.js';
import { EMPTY_BUSINESS } from '../domain/business.js';
import type { DatasetDocument } from '../domain/dataset.js';
import { createMentionMatcher } from '../domain/mentions.js';
import type { DatasetState } from '../domain/ports.js';
import { compareNewest } from '../domain/review-order.js';
import { isPublished, type Review } from '../domain/review.js';
import type { ServiceUrls } from '../domain/urls.js';
import { toPublicReview } from '../domain/public-review.js';
import type { PublishedView } from '../domain/published-view.js';
import { createRepresentation, type RenderedDocument } from './rendered-document.js';
import { createSearchIndex, type SearchIndex } from './search-index.js';

export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

export interface RenderOutput {
  body: string;
  lastModified: string;
  /** The parsed document, for transports that serve parts of it (MCP get_insights). */
  value?: unknown;
}

/**
 * A whole-document renderer, run once per snapshot (style.md). `render` runs while the snapshot is
 * built; `renderAsync` (insights: seconds of work at 10k reviews) completes after it is published.
 */
export interface DocumentRenderer {
  name: string;
  contentType: string;
  render?(view: PublishedView): RenderOutput;
  renderAsync?(view: PublishedView): Promise<RenderOutput>;
}

/** An immutable, versioned view of the published data with its indexes and rendered documents. */
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
  /** Documents still being rendered asynchronously; each settles once, filling `documents`. */
  pending: ReadonlyMap<string, Promise<void>>;
}

/**
 * A document of the snapshot, waiting up to `timeoutMs` for one still being rendered. Undefined when
 * there is no such document, its rendering failed, or it is not ready in time.
 */
export async function documentOf(snapshot: Snapshot, name: string, timeoutMs: number): Promise<RenderedDocument | undefined> {
  const ready = snapshot.documents.get(name);
  if (ready) return ready;
  const pending = snapshot.pending.get(name);
  if (!pending) return undefined;
  await settledWithin(pending, timeoutMs);
  return snapshot.documents.get(name);
}

/** Waits until `work` settles (either way) or `timeoutMs` passes, whichever is first. */
async function settledWithin(work: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  await Promise.race([work.catch(() => undefined), timeout]);
  clearTimeout(timer);
}

/** How long a request waits for a document still being rendered: longer than a full insights pass. */
export const RENDER_WAIT_MS = 15_000;

/**
 * The snapshot once its asynchronous documents are rendered, or after `timeoutMs`, whichever is first:
 * for transports that read several documents (MCP tools and resources).
 */
export async function whenRendered(snapshot: Snapshot, timeoutMs: number): Promise<Snapshot> {
  if (snapshot.pending.size === 0) return snapshot;
  await settledWithin(Promise.allSettled(snapshot.pending.values()), timeoutMs);
  return snapshot;
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

export function datasetDocument(view: PublishedView): DatasetDocument {
  const u = view.urls;
  return {
    business: view.business,
    aggregate_rating: view.aggregate,
    reviews: [...view.reviews],
    updated_at: view.updatedAt,
    links: {
      self: u.reviewsJson,
      insights: u.insightsJson,
      feed_json: u.feedJson,
      feed_xml: u.feedXml,
      search: u.search,
      since: u.since,
      openapi: u.openapi,
      mcp: u.mcp,
      hub: u.hub,
    },
  };
}

/**
 * `JSON.stringify(datasetDocument(view))`, byte for byte, with the reviews spliced in from their
 * already serialized JSON: at 100k reviews, serializing them a second time doubles the build time.
 */
export function datasetJson(view: PublishedView, reviewJson: readonly string[]): string {
  const { reviews: _reviews, ...rest } = datasetDocument(view);
  const head = JSON.stringify({ business: rest.business, aggregate_rating: rest.aggregate_rating });
  const tail = JSON.stringify({ updated_at: rest.updated_at, links: rest.links });
  return `${head.slice(0, -1)},"reviews":[${reviewJson.join(',')}],${tail.slice(1)}`;
}

/** `/reviews.json`, always present. */
export const datasetRenderer: DocumentRenderer = {
  name: 'reviews.json',
  contentType: JSON_MEDIA_TYPE,
  render: (view) => ({
    body: datasetJson(
      view,
      view.reviews.map((r) => JSON.stringify(r)),
    ),
    lastModified: view.updatedAt,
  }),
};

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

export function buildSnapshot(state: DatasetState, urls: ServiceUrls, renderers: readonly DocumentRenderer[]): Snapshot {
  const view = buildView(state, urls);
  const reviewJson = view.reviews.map((r) => JSON.stringify(r));
  const documents = new Map<string, RenderedDocument>();
  const values = new Map<string, unknown>();
  documents.set(
    datasetRenderer.name,
    createRepresentation(datasetJson(view, reviewJson), datasetRenderer.contentType, Date.parse(view.updatedAt)),
  );
  const pending = new Map<string, Promise<void>>();
  const store = (r: DocumentRenderer, out: RenderOutput) => {
    documents.set(r.name, createRepresentation(out.body, r.contentType, Date.parse(out.lastModified)));
    if (out.value !== undefined) values.set(r.name, out.value);
  };
  for (const r of renderers) {
    if (r.render) store(r, r.render(view));
    else if (r.renderAsync) {
      const done = r.renderAsync(view).then((out) => store(r, out));
      // A failed render leaves the document absent (the route answers 503); never an unhandled rejection.
      done.catch(() => undefined);
      pending.set(r.name, done);
    }
  }
  return {
    version: state.version,
    view,
    reviewJson,
    positionById: new Map(view.reviews.map((r, i) => [r.id, i])),
    index: createSearchIndex(view.business, view.reviews),
    documents,
    values,
    pending,
  };
}
