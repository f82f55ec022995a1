import type { Review } from '../domain/review.js';
import type { SearchQuery } from '../domain/search-query.js';
import { createAnswerCache } from '../snapshot/answer-cache.js';
import { searchBody, searchCacheBudget, searchEnvelope, searchKey } from '../snapshot/queries.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { answerBytes } from './reply-bytes.js';

/** A tool's answer twice: its JSON text, and the same value as an object for `structuredContent`. */
export interface StructuredAnswer {
  json: string;
  structured: Record<string, unknown>;
}

/** The review with only `fields`, in its own field order (as projectReviewJson keeps them). */
function project(review: Review, fields: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(review)) if (fields.has(key)) out[key] = review[key as keyof Review];
  return out;
}

/**
 * MCP `search_reviews` (contract §5): the REST search answer (`snapshot/queries.ts`, searchReviews:
 * `{"reviews":[…],` the snapshot's bytes of each review, then the envelope) as text, and the same value
 * for `structuredContent` made of the snapshot's own review objects, whose JSON those bytes are, instead
 * of parsing the text back (issue 15: that parse and its garbage were a tenth of a call's CPU). With
 * `fields`, each review carries only those. search-page.test.ts holds the text to the REST bytes and
 * `structuredContent` to the text.
 */
export function searchPage(snapshot: Snapshot, query: SearchQuery, fields?: ReadonlySet<string>): StructuredAnswer {
  const page = snapshot.index.search(query);
  const all = snapshot.view.reviews;
  const reviews = page.positions.map((p) => (fields ? project(all[p]!, fields) : all[p]!));
  const structured = {
    reviews,
    count: page.positions.length,
    total: page.total,
    limit: page.limit,
    next_cursor: page.next_cursor,
    filters: page.filters,
  };
  if (fields) return { json: JSON.stringify(structured), structured };
  return { json: searchBody(snapshot, page.positions, searchEnvelope(page)).toString('utf8'), structured };
}

/** A kept search answer: its value and text, and their bytes for replyBytes (`body`, for the cache's size). */
export interface KeptAnswer extends StructuredAnswer {
  body: Buffer;
}

// Beside REST's search cache, with the same budget (SEARCH_CACHE_BYTES); the text's string is held too.
const kept = createAnswerCache<KeptAnswer>(searchCacheBudget);

/** REST's key for the same search, and the fields (the decoded cursor follows from cursor and sort). */
function keptKey(q: SearchQuery, fields: readonly string[] | undefined): string {
  return `${searchKey(q)}${JSON.stringify(fields ?? null)}`;
}

/**
 * searchPage, kept per snapshot for the same arguments as REST keeps its answers (issue 15): a repeated
 * search costs a lookup, and its reply is copied from bytes made once (reply-bytes.ts).
 */
export function keptSearchPage(snapshot: Snapshot, query: SearchQuery, fields?: readonly string[]): StructuredAnswer {
  return kept.get(snapshot, keptKey(query, fields), () => {
    const answer = searchPage(snapshot, query, fields && new Set(fields));
    return { ...answer, body: answerBytes(answer.structured, answer.json).all };
  });
}
