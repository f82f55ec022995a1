import type { Review } from '../domain/review.js';
import type { PublishedView } from '../domain/published-view.js';
import { stripInvalidXmlChars } from './xml-chars.js';

/**
 * What the JSON Feed and the Atom feed say about the business and each review, written once so the two
 * feeds never drift apart. Pure: the same view always gives the same strings.
 */

/** Both feeds carry the 50 newest published reviews (contract §4, spec "Items in the JSON Feed"). */
export const FEED_SIZE = 50;

/** `view.reviews` is already newest first (date desc, updated_at desc, id asc), so the feed is its head. */
export function feedReviews(view: PublishedView): readonly Review[] {
  return view.reviews.slice(0, FEED_SIZE);
}

/**
 * A review's last change as the feeds and the sitemap show it: its `updated_at`, but never later than
 * the dataset's last change (`view.updatedAt`, itself never later than the change being published), so
 * an imported date in 2099 shows as the publication, not as the future.
 */
export function shownUpdatedAt(review: Review, view: PublishedView): string {
  return Date.parse(review.updated_at) > Date.parse(view.updatedAt) ? view.updatedAt : review.updated_at;
}

/** The business name on one line: it is the feed's author in both formats. */
export function businessName(view: PublishedView): string {
  return oneLine(view.business.name);
}

/**
 * The feeds say what the pages' banner says while the data is invented (contract §3.1, the demo is
 * marked as such): a reader subscribed to the demo, or to sample reviews, is not told they are real.
 */
export function feedTitle(view: PublishedView): string {
  if (view.business.demo === true) return `${businessName(view)} reviews (demo: an invented business)`;
  if (view.sampleReviews > 0) return `${businessName(view)} reviews (with sample reviews)`;
  return `${businessName(view)} reviews`;
}

export function feedDescription(view: PublishedView): string {
  const { rating_value, review_count } = view.aggregate;
  const name = businessName(view);
  const samples = view.sampleReviews;
  const invented =
    view.business.demo === true
      ? 'Demo: an invented business and made-up reviews, to show what Review Data Service publishes. '
      : samples > 0
        ? `${samples} of these reviews ${samples === 1 ? 'is an invented sample' : 'are invented samples'} from the project's example spreadsheet. `
        : '';
  if (review_count === 0) return `${invented}Verified customer reviews of ${name}.`;
  const noun = review_count === 1 ? 'review' : 'reviews';
  return `${invented}Verified customer reviews of ${name}: ${rating_value} out of 5 from ${review_count} ${noun}.`;
}

/** The business's own site when it has a usable one, else the service's base URL (contract §4). */
export function homePageUrl(view: PublishedView): string {
  const url = view.business.url;
  return url !== null && isAbsoluteHttpUrl(url) ? url : view.urls.base;
}

/**
 * The feed's language (JSON Feed 1.1 `language`, Atom `xml:lang`): the most common review language among
 * the items, ties broken alphabetically so the choice never depends on order; `en` when none is known.
 */
export function feedLanguage(reviews: readonly Review[]): string {
  const counts = new Map<string, number>();
  for (const r of reviews) if (r.language) counts.set(r.language, (counts.get(r.language) ?? 0) + 1);
  let best = 'en';
  let bestCount = 0;
  for (const [lang, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (n > bestCount) [best, bestCount] = [lang, n];
  }
  return best;
}

/**
 * The review's title on one line after its stars ("★★★★☆ Fixed it fast"), or a generated one such as
 * "★★★★☆ 4/5 from Jane D.": readers show titles, not tags (contract §4, second round).
 */
export function reviewTitle(review: Review): string {
  const title = review.title === null ? '' : oneLine(review.title);
  const stars = '★'.repeat(review.rating) + '☆'.repeat(5 - review.rating);
  if (title !== '') return `${stars} ${title}`;
  return `${stars} ${review.rating}/5 from ${authorName(review)}`;
}

/** A display name for the reviewer; never empty, because a nameless author is useless to a reader. */
export function authorName(review: Review): string {
  return oneLine(review.author.name) || 'Anonymous customer';
}

/** The review text as plain text; a rating-only review (empty text) still says something. */
export function reviewContentText(review: Review): string {
  const text = stripInvalidXmlChars(review.text);
  return text.trim() === '' ? `Rated ${review.rating} out of 5.` : text;
}

/**
 * The review as an HTML fragment: the escaped text with line breaks as `<br>`, then the owner's reply as
 * a blockquote. Everything from the data is escaped, so review markup (`<script>`) is shown, never run.
 */
export function reviewContentHtml(review: Review, ownerName: string): string {
  let html = `<p>${textToHtml(reviewContentText(review))}</p>`;
  const response = review.response;
  if (response !== null && response.text.trim() !== '') {
    const when = response.date === null ? '' : `, ${response.date}`;
    const heading = `Response from ${oneLine(ownerName)}${when}:`;
    html += `\n<blockquote><p><strong>${escapeHtml(heading)}</strong></p><p>${textToHtml(response.text)}</p></blockquote>`;
  }
  return html;
}

/**
 * Tags (JSON Feed 1.1 `tags`, Atom `category`): `rating:N`, then the names of the technicians, services
 * and service areas the review mentions, without duplicates, in that order.
 */
export function reviewTags(review: Review): string[] {
  const { technicians, services, service_areas } = review.mentions;
  const names = [...technicians, ...services, ...service_areas].map((m) => oneLine(m.name)).filter(Boolean);
  return [...new Set([`rating:${review.rating}`, ...names])];
}

/** The review's day as an RFC 3339 timestamp (midnight UTC): both formats want a full date-time. */
export function publishedTimestamp(review: Review): string {
  return `${review.date}T00:00:00Z`;
}

export function isAbsoluteHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Escaped text whose line breaks (CRLF, CR or LF: one break each) become `<br>`. */
function textToHtml(text: string): string {
  return escapeHtml(stripInvalidXmlChars(text)).replace(/\r\n|\r|\n/g, '<br>');
}

/** Titles and names are single-line in every reader: line breaks and runs of whitespace become one space. */
function oneLine(s: string): string {
  return stripInvalidXmlChars(s).replace(/\s+/g, ' ').trim();
}
