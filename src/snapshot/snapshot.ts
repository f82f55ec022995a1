import { computeAggregate } from '../domain/aggregate.js';
import { EMPTY_BUSINESS } from '../domain/business.js';
import type { DatasetDocument } from '../domain/dataset.js';
import { createMentionMatcher } from '../domain/mentions.js';
import type { DatasetState } from '../domain/ports.js';
import { compareNewest } from '../domain/review-order.js';
import { isPublished, type Review } from '../domain/review.js';
import type { ServiceUrls } from '../domain/urls.js';
import { toPublicReview } from './public-review.js';
import type { PublishedView } from './published-view.js';
import { createRepresentation, type RenderedDocument } from './rendered-document.js';
import { createSearchIndex, type SearchIndex } from './search-index.js';

export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/** A whole-document renderer: pure, run once per snapshot (style.md). */
export interface DocumentRenderer {
  name: string;
  contentType: string;
  render(view: PublishedView): { body: string; lastModified: string; value?: unknown };
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
}

function newestTimestamp(stamps: Iterable<string | null>): string {
  let best = new Date(0).toISOString();
  for (const s of stamps) if (s && Date.parse(s) > Date.parse(best)) best = s;
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

/** `/reviews.json`, always present. */
export const datasetRenderer: DocumentRenderer = {
  name: 'reviews.json',
  contentType: JSON_MEDIA_TYPE,
  render: (view) => ({ body: JSON.stringify(datasetDocument(view)), lastModified: view.updatedAt }),
};

export function buildView(state: DatasetState, urls: ServiceUrls): PublishedView {
  const business = state.business ?? EMPTY_BUSINESS;
  const matcher = createMentionMatcher(business);
  const reviews: Review[] = state.reviews.filter(isPublished).map((r) => toPublicReview(r, matcher));
  reviews.sort(compareNewest);
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
  const documents = new Map<string, RenderedDocument>();
  const values = new Map<string, unknown>();
  for (const r of [datasetRenderer, ...renderers]) {
    const out = r.render(view);
    documents.set(r.name, createRepresentation(out.body, r.contentType, Date.parse(out.lastModified)));
    if (out.value !== undefined) values.set(r.name, out.value);
  }
  return {
    version: state.version,
    view,
    reviewJson: view.reviews.map((r) => JSON.stringify(r)),
    positionById: new Map(view.reviews.map((r, i) => [r.id, i])),
    index: createSearchIndex(view.business, view.reviews),
    documents,
    values,
  };
}
