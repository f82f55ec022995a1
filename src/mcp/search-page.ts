import type { Review } from '../domain/review.js';
import type { SearchQuery } from '../domain/search-query.js';
import { joinAnswer } from '../snapshot/review-bytes.js';
import type { Snapshot } from '../snapshot/snapshot.js';

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
 * `fields`, each review carries only those. test/mcp/tools.test.ts holds the text to the REST bytes and
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
  const envelope =
    `],"count":${structured.count},"total":${page.total},"limit":${page.limit},` +
    `"next_cursor":${JSON.stringify(page.next_cursor)},"filters":${JSON.stringify(page.filters)}}`;
  const bytes = snapshot.reviewBytes;
  const json = joinAnswer(
    '{"reviews":[',
    page.positions.map((p) => bytes.bytes(p)),
    envelope,
  ).toString('utf8');
  return { json, structured };
}
