import type { DatasetDocument } from '../../domain/dataset.js';
import { JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import type { PublishedView } from '../../domain/published-view.js';
import type { FastRenderer } from './document-renderer.js';

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
 * The dataset document around its reviews: `{...,"reviews":[` and `],...}`, so that these ends with the
 * reviews' JSON joined by commas between them are `JSON.stringify(datasetDocument(view))`, byte for byte.
 */
export function datasetEnds(view: PublishedView): [string, string] {
  const { reviews: _reviews, ...rest } = datasetDocument(view);
  const head = JSON.stringify({ business: rest.business, aggregate_rating: rest.aggregate_rating });
  const tail = JSON.stringify({ updated_at: rest.updated_at, links: rest.links });
  return [`${head.slice(0, -1)},"reviews":[`, `],${tail.slice(1)}`];
}

/**
 * `/reviews.json`: every snapshot has it. The snapshot writes the reviews' bytes into this document
 * between `datasetEnds` (snapshot.ts, review-bytes.ts), in chunks between which a server answers requests.
 */
export const datasetRenderer: FastRenderer = {
  kind: 'fast',
  name: 'reviews.json',
  contentType: JSON_MEDIA_TYPE,
  render: ({ view, reviewBytes }) => ({ body: reviewBytes.document, lastModified: view.updatedAt }),
};
