import type { Config } from './config.js';
import { ATOM_MEDIA_TYPE, renderAtomFeed } from './feeds/atom.js';
import { feedReviews } from './feeds/feed-content.js';
import { JsonFeedSchema } from './feeds/json-feed-schema.js';
import { JSON_FEED_MEDIA_TYPE, renderJsonFeed } from './feeds/json-feed.js';
import type { DocumentSchemas } from './http/routes/datasets.js';
import type { PublishedView } from './snapshot/published-view.js';
import type { DocumentRenderer } from './snapshot/snapshot.js';
import { JSON_MEDIA_TYPE } from './snapshot/snapshot.js';

export interface Renderers {
  list: DocumentRenderer[];
  schemas: Partial<DocumentSchemas>;
}

/** Last-Modified of a feed: the newest updated_at among its entries (contract §4). */
function feedLastModified(view: PublishedView): string {
  const stamps = feedReviews(view).map((r) => r.updated_at);
  if (stamps.length === 0) return view.updatedAt;
  return stamps.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

/** The documents every snapshot renders besides reviews.json: insights and the two feeds. */
export async function createDocumentRenderers(_config: Config): Promise<Renderers> {
  const insights: DocumentRenderer = {
    name: 'insights.json',
    contentType: JSON_MEDIA_TYPE,
    render: (view) => {
      const doc = { generated_at: view.updatedAt, review_count: view.reviews.length };
      return { body: JSON.stringify(doc), lastModified: view.updatedAt, value: doc };
    },
  };
  const jsonFeed: DocumentRenderer = {
    name: 'feed.json',
    contentType: JSON_FEED_MEDIA_TYPE,
    render: (view) => ({ body: renderJsonFeed(view), lastModified: feedLastModified(view) }),
  };
  const atom: DocumentRenderer = {
    name: 'feed.xml',
    contentType: ATOM_MEDIA_TYPE,
    render: (view) => ({ body: renderAtomFeed(view), lastModified: feedLastModified(view) }),
  };
  return { list: [insights, jsonFeed, atom], schemas: { jsonFeed: JsonFeedSchema } };
}
