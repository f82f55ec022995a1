import { hash } from 'node:crypto';
import type { Issue } from '../domain/errors.js';
import { projectReviewJson } from '../domain/review-fields.js';
import type { SearchQuery } from '../domain/search-query.js';
import { createRepresentation, createRepresentationWithEtag, type Representation } from './rendered-document.js';
import { JSON_MEDIA_TYPE } from '../domain/media-types.js';
import type { ReviewBytes } from './review-bytes.js';
import type { SearchPage } from './search-index.js';
import { memoBucket, memoValue } from './snapshot-memo.js';
import type { Snapshot } from './snapshot.js';

/**
 * Read use cases over a snapshot, shared by REST and MCP so the two can never disagree. Responses are
 * assembled by copying each review's bytes from the snapshot (review-bytes.ts): no review is stringified
 * or encoded per request.
 */

/**
 * A query answer of this snapshot, dated by the snapshot's publication time (docs/decisions.md, Operations): an answer
 * can change because a review left it, which no remaining record's updated_at shows.
 */
export function answerRepresentation(snapshot: Snapshot, json: string | Buffer): Representation {
  return createRepresentation(json, JSON_MEDIA_TYPE, snapshot.publishedAt, snapshot.publishedWeak);
}

/**
 * A search answer: `{"reviews":[…],` then its envelope (count, total, limit, next_cursor, filters). The
 * reviews are the snapshot's pre-serialized JSON; the envelope is all that is built per request.
 */
function searchParts(snapshot: Snapshot, query: SearchQuery): { positions: number[]; envelope: string } {
  const page = snapshot.index.search(query);
  return { positions: page.positions, envelope: searchEnvelope(page) };
}

/** What follows a search answer's reviews: `],"count":…,"total":…,"limit":…,"next_cursor":…,"filters":…}`. */
export function searchEnvelope(page: Pick<SearchPage, 'positions' | 'total' | 'limit' | 'next_cursor' | 'filters'>): string {
  return (
    `],"count":${page.positions.length},"total":${page.total},"limit":${page.limit},` +
    `"next_cursor":${JSON.stringify(page.next_cursor)},"filters":${JSON.stringify(page.filters)}}`
  );
}

/**
 * A search answer's bytes: `{"reviews":[`, the reviews at `positions`, the envelope; in a new buffer, or
 * in `allocate(length)`'s.
 */
export function searchBody(
  snapshot: Snapshot,
  positions: readonly number[],
  envelope: string,
  allocate?: (length: number) => Buffer,
): Buffer {
  return snapshot.reviewBytes.join('{"reviews":[', positions, envelope, allocate);
}

/** @internal exported for tests as well */
export function searchReviews(snapshot: Snapshot, query: SearchQuery): { json: string } {
  const { positions, envelope } = searchParts(snapshot, query);
  return { json: searchBody(snapshot, positions, envelope).toString('utf8') };
}

/**
 * Each review's digest (SHA-256 of its JSON, base64url, 22 characters) for the answers' ETags, made on
 * first use and kept as ASCII bytes in one table (a string each cost more memory, and joining them per
 * answer was most of a first-time search's garbage), with the buffer a tag's input is
 * assembled in (hashed at once, never kept). One per snapshot data, in its memo: a copy of the snapshot
 * with another document shares it.
 */
interface SearchTagger {
  tag(positions: readonly number[], envelope: string): string;
}

const DIGEST_CHARS = 22;
const TAG_PREFIX = 'search:';
const SEARCH_TAGS = memoValue<SearchTagger>('search tags', { readsDocuments: false });

function createSearchTagger(bytes: ReviewBytes): SearchTagger {
  const chars = new Uint8Array(bytes.count * DIGEST_CHARS);
  const known = new Uint8Array(bytes.count);
  let input = Buffer.allocUnsafeSlow(4096);
  return {
    tag(positions, envelope) {
      const need = TAG_PREFIX.length + positions.length * (DIGEST_CHARS + 1) + 3 * envelope.length;
      if (input.length < need) input = Buffer.allocUnsafeSlow(2 * need);
      let at = input.write(TAG_PREFIX, 0, 'latin1');
      for (let i = 0; i < positions.length; i++) {
        const pos = positions[i]!;
        const from = pos * DIGEST_CHARS;
        if (known[pos] === 0) {
          chars.set(Buffer.from(hash('sha256', bytes.bytes(pos), 'base64url').slice(0, DIGEST_CHARS), 'latin1'), from);
          known[pos] = 1;
        }
        if (i > 0) input[at++] = 0x2c; // ','
        for (let c = 0; c < DIGEST_CHARS; c++) input[at++] = chars[from + c]!;
      }
      at += input.write(envelope, at, 'utf8');
      return `"${hash('sha256', input.subarray(0, at), 'base64url').slice(0, 32)}"`;
    },
  };
}

/**
 * The ETag of a search answer: the SHA-256 of `search:`, its reviews' digests joined by commas, and its
 * envelope (the same bytes always give the same tag, on every replica and after restarts).
 */
function searchTag(snapshot: Snapshot, positions: readonly number[], envelope: string): string {
  return snapshot.memo.value(SEARCH_TAGS, () => createSearchTagger(snapshot.reviewBytes)).tag(positions, envelope);
}

/**
 * `GET /api/reviews/search`: searchReviews's answer with a strong ETag derived from its
 * content without hashing its bytes. They are `{"reviews":[` + the reviews' JSON + the envelope, so the
 * same reviews (by digest) and the same envelope are the same bytes: the tag hashes the digests and the
 * envelope (a few hundred bytes instead of tens of kilobytes). It is equal on every replica and after
 * restarts (contract §4), and a search whose reviews did not change keeps its tag when others do.
 * Computed afresh: the HTTP layer keeps the answers it sends in the snapshot's memo.
 */
export function searchRepresentation(snapshot: Snapshot, query: SearchQuery): Representation {
  const { positions, envelope, etag } = searchAnswer(snapshot, query);
  return createRepresentationWithEtag(
    searchBody(snapshot, positions, envelope),
    JSON_MEDIA_TYPE,
    etag,
    snapshot.publishedAt,
    snapshot.publishedWeak,
  );
}

/** A search answer before its bytes: its reviews, its envelope and its strong ETag (see above). */
export interface SearchAnswer {
  positions: number[];
  envelope: string;
  etag: string;
}

export function searchAnswer(snapshot: Snapshot, query: SearchQuery): SearchAnswer {
  const { positions, envelope } = searchParts(snapshot, query);
  return { positions, envelope, etag: searchTag(snapshot, positions, envelope) };
}

/**
 * The date validators of a query answer of `snapshot`, as answerRepresentation's: the publication time
 * in whole seconds, weak when another content was published within the same second.
 */
export function answerValidators(snapshot: Snapshot, etag: string): Pick<Representation, 'etag' | 'lastModified' | 'weakDate'> {
  const lastModified = Math.floor(snapshot.publishedAt / 1000) * 1000;
  // Two literals, not a spread: this runs for every first-time search.
  return snapshot.publishedWeak ? { etag, lastModified, weakDate: true } : { etag, lastModified };
}

/** Positions [0, end) of the reviews dated on or after `date` (positions are newest first). */
export function sinceEnd(snapshot: Snapshot, date: string): number {
  const reviews = snapshot.view.reviews;
  let lo = 0;
  let hi = reviews.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (reviews[mid]!.date >= date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function findReview(snapshot: Snapshot, id: string): { json: string; updated_at: string } | null {
  const pos = snapshot.positionOf(id);
  if (pos === undefined) return null;
  return { json: snapshot.reviewBytes.json(pos), updated_at: snapshot.view.reviews[pos]!.updated_at };
}

/** The answer to a lookup by id (`GET /api/reviews/{id}`, the MCP tool `get_review`): `{"review":…}`. */
export function reviewAnswerJson(review: { json: string }): string {
  return `{"review":${review.json}}`;
}

/** The issue a since request reports for a date that is not a calendar date (REST and MCP alike). */
export function sinceDateIssue(date: string): Issue {
  return {
    path: ['date'],
    code: 'invalid_date',
    message: `date must be a real calendar date in YYYY-MM-DD form (got ${JSON.stringify(date)})`,
  };
}

/**
 * The since answer `{ since, count, total, reviews }` in three parts: every published review dated on
 * or after `date`, newest first, at most `limit` of them (MCP's cap; REST asks for all). Positions are
 * newest first, so the reviews are one contiguous slice of the snapshot's bytes: `reviews` is a view of
 * them, never a copy. Every date before the first review is the same reviews, whatever the date.
 */
export interface SinceParts {
  head: Buffer;
  reviews: Buffer;
  tail: Buffer;
  count: number;
  length: number;
}

const SINCE_TAIL = Buffer.from(']}');

export function sinceParts(snapshot: Snapshot, date: string, limit?: number): SinceParts {
  const total = sinceEnd(snapshot, date);
  const count = Math.min(total, limit ?? total);
  const head = Buffer.from(`{"since":${JSON.stringify(date)},"count":${count},"total":${total},"reviews":[`);
  const reviews = snapshot.reviewBytes.range(0, count);
  return { head, reviews, tail: SINCE_TAIL, count, length: head.length + reviews.length + SINCE_TAIL.length };
}

/** The digest of the first `count` reviews' bytes, kept per snapshot by count (SINCE_CACHE_BYTES). */
const SINCE_RANGES = memoBucket<{ digest: string; bytes: number }>('since', 'review range digests');

/**
 * The strong ETag of a since answer: the SHA-256 of its head (date, count, total) and of the digest of
 * its reviews' bytes. The same bytes give the same tag on every replica and after restarts; the reviews'
 * digest is computed once per snapshot and range, so distinct dates that resolve to the same reviews
 * (every date before the first review) hash them once, not once each.
 */
export function sinceTag(snapshot: Snapshot, parts: SinceParts): string {
  const ranges = snapshot.memo.bucket(SINCE_RANGES);
  const key = String(parts.count);
  let range = ranges.peek(key);
  if (!range) ranges.put(key, (range = { digest: hash('sha256', parts.reviews, 'base64url'), bytes: 64 }));
  return `"${hash('sha256', `since\n${parts.head.toString('utf8')}\n${range.digest}`, 'base64url').slice(0, 32)}"`;
}

/**
 * MCP `get_reviews_since` (contract §5, answers sized for a context window): one page of the since
 * answer, `{ since, count, total, reviews, next_cursor }`. The reviews on or after a date, newest first,
 * are exactly the `newest` search with that `since`, so paging uses the search index and its cursors;
 * `fields` keeps only those review fields.
 */
export function sincePage(snapshot: Snapshot, date: string, query: SearchQuery, fields?: ReadonlySet<string>): { json: string } {
  const page = snapshot.index.search({ ...query, since: date, sort: 'newest' });
  const bytes = snapshot.reviewBytes;
  const reviews = page.positions.map((p) => (fields ? projectReviewJson(bytes.json(p), fields) : bytes.json(p))).join(',');
  const json =
    `{"since":${JSON.stringify(date)},"count":${page.positions.length},"total":${page.total},` +
    `"reviews":[${reviews}],"next_cursor":${JSON.stringify(page.next_cursor)}}`;
  return { json };
}
