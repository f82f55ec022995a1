import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
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
  isAbsoluteHttpUrl,
  publishedTimestamp,
  reviewContentHtml,
  reviewTags,
  reviewTitle,
  shownUpdatedAt,
} from './feed-content.js';
import { stripInvalidXmlChars } from './xml-chars.js';

export { ATOM_MEDIA_TYPE } from './atom-media-type.js';

const ATOM_NS = 'http://www.w3.org/2005/Atom';
const GENERATOR = 'Review Data Service';

/**
 * The 50 newest published reviews as an Atom 1.0 feed (RFC 4287; contract §4). Pure: the same view gives
 * the same bytes. Every string reaches xmlbuilder2 through `add`, so none skips `clean` below.
 */
export function renderAtomFeed(view: PublishedView): string {
  const reviews = feedReviews(view);
  const home = homePageUrl(view);
  const owner = businessName(view);
  const feed = create({ version: '1.0', encoding: 'UTF-8' })
    .ele(ATOM_NS, 'feed')
    .att('xml:lang', clean(feedLanguage(reviews)));

  // RFC 4287 §4.2.6: the feed id is a permanent IRI; the feed's own URL is stable for a BASE_URL.
  add(feed, 'id', view.urls.feedXml);
  add(feed, 'title', feedTitle(view), { type: 'text' });
  add(feed, 'subtitle', feedDescription(view), { type: 'text' });
  add(feed, 'updated', view.updatedAt);
  // Contract §4: rel="alternate" first, then rel="self" (RFC 4287 §4.2.7.2), then the WebSub hub
  // (WebSub §4: publishers advertise the hub with rel="hub" inside the feed).
  add(feed, 'link', null, { rel: 'alternate', href: home });
  add(feed, 'link', null, { rel: 'self', type: 'application/atom+xml', href: view.urls.feedXml });
  add(feed, 'link', null, { rel: 'hub', href: view.urls.hub });
  // RFC 4287 §4.1.1: a feed-level author stands for every entry that lacks one (ours all have one).
  const author = add(feed, 'author', null);
  add(author, 'name', owner);
  add(author, 'uri', home);
  add(feed, 'generator', GENERATOR);

  for (const review of reviews) addEntry(feed, view, review, owner);
  return `${feed.end({ prettyPrint: true })}\n`;
}

function addEntry(feed: XMLBuilder, view: PublishedView, review: Review, owner: string): void {
  const permalink = view.urls.review(review.id);
  const entry = add(feed, 'entry', null);
  // Contract §4: the entry id is the review's JSON permalink (stable); its alternate link is the review's
  // page, then the JSON (RFC 4287 §4.2.7.2 allows one alternate per type).
  add(entry, 'id', permalink);
  add(entry, 'title', reviewTitle(review), { type: 'text' });
  add(entry, 'link', null, { rel: 'alternate', type: 'text/html', href: view.urls.reviewPage(review.id) });
  add(entry, 'link', null, { rel: 'alternate', type: 'application/json', href: permalink });
  // RFC 4287 §4.2.7.2 "via": the platform page the review was first published on.
  if (review.source.url !== null && isAbsoluteHttpUrl(review.source.url)) {
    add(entry, 'link', null, { rel: 'via', href: review.source.url });
  }
  add(entry, 'published', publishedTimestamp(review));
  add(entry, 'updated', shownUpdatedAt(review, view));
  add(add(entry, 'author', null), 'name', authorName(review));
  for (const tag of reviewTags(review)) add(entry, 'category', null, { term: tag });
  // RFC 4287 §4.1.3.1 type="html": the same escaped HTML as the JSON Feed's content_html, escaped once
  // more as XML, so the owner's reply keeps its blockquote in every reader.
  const contentAttrs: Record<string, string> = { type: 'html' };
  if (review.language) contentAttrs['xml:lang'] = review.language;
  add(entry, 'content', reviewContentHtml(review, owner), contentAttrs);
}

/** Appends a child element; every attribute value and the text pass through `clean` first. */
function add(parent: XMLBuilder, name: string, text: string | null, attrs: Record<string, string> = {}): XMLBuilder {
  const cleaned = Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, clean(v)]));
  const child = parent.ele(name, cleaned);
  if (text !== null) child.txt(clean(text));
  return child;
}

/**
 * Every string goes through here before the builder sees it. Two reasons:
 * - characters outside XML 1.0 `Char` (§2.2) are removed, so no review text can make the feed ill-formed;
 * - xmlbuilder2 (3.0.2 and later, 4.x included) leaves an `&` that starts something entity-shaped (`&amp;`,
 *   `&nbsp;`, `&#1;`) unescaped (oozcitak/xmlbuilder2#117), which would decode `&lt;script&gt;` in our
 *   escaped HTML back into a live tag, or emit an undefined entity. Escaping `&` ourselves first turns
 *   every ampersand into `&amp;`, which the builder then leaves alone; it still escapes `<`, `>` and `"`.
 *   The round-trip tests in atom.test.ts fail if a future version starts escaping these twice.
 */
function clean(s: string): string {
  return stripInvalidXmlChars(s).replace(/&/g, '&amp;');
}
