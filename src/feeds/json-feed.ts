import type { Review } from '../domain/review.js';
import type { PublishedView } from '../domain/published-view.js';
import {
  authorName,
  businessName,
  feedDescription,
  feedLanguage,
  feedReviews,
  feedTitle,
  homePageUrl,
  publishedTimestamp,
  reviewContentHtml,
  reviewContentText,
  reviewTags,
  reviewTitle,
  shownUpdatedAt,
} from './feed-content.js';
import type { JsonFeed, JsonFeedItem } from './json-feed-schema.js';

/** JSON Feed 1.1 "Suggestions": served as application/feed+json (contract §4). */
export const JSON_FEED_MEDIA_TYPE = 'application/feed+json';

export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

/** The 50 newest published reviews as a JSON Feed 1.1 document (contract §4). Pure. */
export function buildJsonFeed(view: PublishedView): JsonFeed {
  const reviews = feedReviews(view);
  const home = homePageUrl(view);
  // Key order is the output order: JSON Feed 1.1 says `version` should appear at the very top.
  return {
    version: JSON_FEED_VERSION,
    title: feedTitle(view),
    home_page_url: home,
    feed_url: view.urls.feedJson,
    description: feedDescription(view),
    language: feedLanguage(reviews),
    authors: [{ name: businessName(view), url: home }],
    hubs: [{ type: 'WebSub', url: view.urls.hub }],
    items: reviews.map((r) => buildItem(view, r)),
  };
}

/** The serialized feed: 2-space indented for people reading it raw, newline-terminated, stable bytes. */
export function renderJsonFeed(view: PublishedView): string {
  return `${JSON.stringify(buildJsonFeed(view), null, 2)}\n`;
}

function buildItem(view: PublishedView, review: Review): JsonFeedItem {
  return {
    // JSON Feed 1.1: `id` must be a string, unique and unchanging for the item: the review id.
    id: review.id,
    // Contract §4 (second round): the item's url is the review's HTML page, which links the JSON.
    url: view.urls.reviewPage(review.id),
    title: reviewTitle(review),
    content_text: reviewContentText(review),
    content_html: reviewContentHtml(review, businessName(view)),
    date_published: publishedTimestamp(review),
    date_modified: shownUpdatedAt(review, view),
    authors: [{ name: authorName(review) }],
    tags: reviewTags(review),
    ...(review.language ? { language: review.language } : {}),
    _review: review,
  };
}
