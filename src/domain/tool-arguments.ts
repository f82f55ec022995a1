import { z } from 'zod';
import { DatasetDocumentSchema } from './dataset.js';
import { DateSchema } from './dates.js';
import { toIssues } from './errors.js';
import { ReviewFieldsSchema } from './review-fields.js';
import { ReviewSchema } from './review.js';
import { SearchResultSchema, SinceResultSchema } from './results.js';
import {
  isValidSearchParams,
  parseSearchArguments,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SearchFieldsSchema,
  type ParseResult,
} from './search-params.js';
import { withDecodedCursor, type SearchQuery } from './search-query.js';

/**
 * The arguments and results of the MCP tools that twin a REST endpoint (contract §5), beside the REST
 * schemas they extend: the MCP layer lists and validates with these.
 */

/** `search_reviews`: exactly the REST search parameters, plus `fields`. */
export const SearchArgumentsSchema = SearchFieldsSchema.extend({ fields: ReviewFieldsSchema });

/** `search_reviews` arguments, valid: the REST search's query (cursor decoded) and the fields to keep. */
export interface SearchArguments {
  query: SearchQuery;
  fields?: ReadonlySet<string>;
}

/** The REST search's validation (the same schema, issues and cursor check), and `fields`'. */
export function parseSearchToolArguments(args: Record<string, unknown>): ParseResult<SearchArguments> {
  const { fields: rawFields, ...rest } = args;
  const fields = rawFields === undefined ? undefined : ReviewFieldsSchema.safeParse(rawFields);
  // Valid arguments, nearly every call, are recognised without the schema, as REST does.
  const query = withDecodedCursor(isValidSearchParams(rest) ? { ok: true, value: rest } : parseSearchArguments(rest));
  if (query.ok && (fields === undefined || fields.success)) {
    return { ok: true, value: { query: query.value, ...(fields?.data ? { fields: new Set(fields.data) } : {}) } };
  }
  return { ok: false, issues: [...(query.ok ? [] : query.issues), ...(fields?.error ? toIssues(fields.error, ['fields']) : [])] };
}

/** `get_reviews_since`: a date, and pages like search (limit 1..100, default 20, cursor). */
export const SinceArgumentsSchema = z.object({
  date: DateSchema.describe('A calendar date, YYYY-MM-DD: reviews dated on or after it.'),
  limit: z
    .int()
    .min(1)
    .max(SEARCH_LIMIT_MAX)
    .default(SEARCH_LIMIT_DEFAULT)
    .describe(`Reviews per page (newest first), 1 to ${SEARCH_LIMIT_MAX}, default ${SEARCH_LIMIT_DEFAULT}.`),
  cursor: z.string().max(1000).optional().describe('Opaque cursor from a previous next_cursor, for the next page.'),
  fields: ReviewFieldsSchema,
});

// With `fields`, a review carries only the fields asked for.
const PartialReviewsSchema = z.array(ReviewSchema.partial()).describe('The reviews; only the requested fields when `fields` was given.');

export const BusinessResultSchema = DatasetDocumentSchema.pick({ business: true, aggregate_rating: true });

export const SearchToolResultSchema = SearchResultSchema.extend({ reviews: PartialReviewsSchema });

export const SinceToolResultSchema = SinceResultSchema.extend({
  total: z.int().min(0).describe('Reviews dated on or after `since`, over all pages.'),
  count: z.int().min(0).describe('Reviews in this page.'),
  reviews: PartialReviewsSchema,
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
});
