import type { PublishedView } from '../../domain/published-view.js';
import { ATOM_MEDIA_TYPE, renderAtomFeed } from '../../feeds/atom.js';
import { feedReviews } from '../../feeds/feed-content.js';
import { JSON_FEED_MEDIA_TYPE, renderJsonFeed } from '../../feeds/json-feed.js';
import type { FastRenderer } from './document-renderer.js';

/** Last-Modified of a feed: the newest updated_at among its entries (contract §4). */
function feedLastModified(view: PublishedView): string {
  const stamps = feedReviews(view).map((r) => r.updated_at);
  if (stamps.length === 0) return view.updatedAt;
  return stamps.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

/** `/api/feed.json`: JSON Feed 1.1 of the 50 newest reviews. */
export const jsonFeedRenderer: FastRenderer = {
  kind: 'fast',
  name: 'feed.json',
  contentType: JSON_FEED_MEDIA_TYPE,
  render: ({ view }) => ({ body: renderJsonFeed(view), lastModified: feedLastModified(view) }),
};

/** `/feed.xml`: Atom 1.0 of the same reviews. */
export const atomRenderer: FastRenderer = {
  kind: 'fast',
  name: 'feed.xml',
  contentType: ATOM_MEDIA_TYPE,
  render: ({ view }) => ({ body: renderAtomFeed(view), lastModified: feedLastModified(view) }),
};
