import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { DatasetDocumentSchema } from '../domain/dataset.js';
import { DateSchema } from '../domain/dates.js';
import { toIssues, type ErrorCode, type Issue } from '../domain/errors.js';
import { ReviewFieldsSchema } from '../domain/review-fields.js';
import type { Review } from '../domain/review.js';
import { ReviewSchema } from '../domain/review.js';
import { ReviewResultSchema, SearchResultSchema, SinceResultSchema } from '../domain/results.js';
import {
  isValidSearchParams,
  parseSearchArguments,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SearchFieldsSchema,
  type ParseResult,
} from '../domain/search-params.js';
import { withDecodedCursor, type SearchQuery } from '../domain/search-query.js';
import { InsightsDocumentSchema, InsightsSectionNameSchema } from '../insights/schema.js';
import { pickInsightsSection } from '../insights/sections.js';
import { insightsValue } from '../snapshot/insights-value.js';
import { findReview, searchBody, searchEnvelope, sinceDateIssue, sincePage } from '../snapshot/queries.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { toolInput, toolOutput } from './tool-schema.js';

/** A tool's answer: its JSON text and the same value for `structuredContent`, or why there is none. */
export type ToolAnswer = { ok: true; json: string; structured: object } | ToolFailure;
export type ToolFailure = { ok: false; code: ErrorCode; detail: string; issues?: Issue[] };

/** Runs a tool call: invalid arguments are a tool error with their issues, else `answer` on the snapshot. */
export type Respond = <T>(args: ParseResult<T>, answer: (value: T, snapshot: Snapshot) => ToolAnswer) => Promise<CallToolResult>;

const withJson = (structured: object): ToolAnswer => ({ ok: true, json: JSON.stringify(structured), structured });
const parsedJson = (json: string): ToolAnswer => ({ ok: true, json, structured: JSON.parse(json) as object });

/** The review with only `fields`, in its own field order (as projectReviewJson keeps them). */
function project(review: Review, fields: ReadonlySet<string> | undefined): Partial<Review> {
  if (!fields) return review;
  return Object.fromEntries(Object.entries(review).filter(([key]) => fields.has(key)));
}

/** `get_business`: `{ business, aggregate_rating }`, as in /reviews.json. */
export function getBusiness(snapshot: Snapshot): ToolAnswer {
  return withJson({ business: snapshot.view.business, aggregate_rating: snapshot.view.aggregate });
}

const SearchArgumentsSchema = SearchFieldsSchema.extend({ fields: ReviewFieldsSchema });
type SearchArguments = { query: SearchQuery; fields?: ReadonlySet<string> };

/** The REST search's validation (the same schema, issues and cursor check), and `fields`. */
function parseSearch(args: Record<string, unknown>): ParseResult<SearchArguments> {
  const { fields: rawFields, ...rest } = args;
  const fields = rawFields === undefined ? undefined : ReviewFieldsSchema.safeParse(rawFields);
  const query = withDecodedCursor(isValidSearchParams(rest) ? { ok: true, value: rest } : parseSearchArguments(rest));
  if (query.ok && (fields === undefined || fields.success))
    return { ok: true, value: { query: query.value, fields: fields?.data && new Set(fields.data) } };
  return { ok: false, issues: [...(query.ok ? [] : query.issues), ...(fields?.error ? toIssues(fields.error, ['fields']) : [])] };
}

/**
 * `search_reviews`: the REST search answer. The text is the REST bytes (the snapshot's review bytes and
 * the envelope), and structuredContent the same value made of the snapshot's review objects rather than
 * parsed back from the text; with `fields`, both carry only those fields.
 */
export function searchReviews({ query, fields }: SearchArguments, snapshot: Snapshot): ToolAnswer {
  const page = snapshot.index.search(query);
  const reviews = page.positions.map((p) => project(snapshot.view.reviews[p]!, fields));
  const { total, limit, next_cursor, filters } = page;
  const structured = { reviews, count: reviews.length, total, limit, next_cursor, filters };
  if (fields) return withJson(structured);
  return { ok: true, json: searchBody(snapshot, page.positions, searchEnvelope(page)).toString('utf8'), structured };
}

/** `get_review`: `{ review }` as GET /api/reviews/{id} answers it; an unknown or unpublished id is a tool error. */
export function getReview({ id }: { id: string }, snapshot: Snapshot): ToolAnswer {
  const review = findReview(snapshot, id);
  if (!review) return { ok: false, code: 'not_found', detail: 'There is no published review with that id.' };
  return parsedJson(`{"review":${review.json}}`);
}

// get_reviews_since pages like search (contract §5: limit 1..100, default 20, cursor).
const SinceArgumentsSchema = z.object({
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
type SinceArguments = { date: string; query: SearchQuery; fields?: ReadonlySet<string> };

function parseSince(args: Record<string, unknown>): ParseResult<SinceArguments> {
  const parsed = SinceArgumentsSchema.safeParse(args);
  if (!parsed.success) {
    // A bad date reads exactly as the REST 400 for the same date does.
    const { date } = args;
    const issues = toIssues(parsed.error).map((i) => (i.path[0] === 'date' && typeof date === 'string' ? sinceDateIssue(date) : i));
    return { ok: false, issues };
  }
  const { date, limit, cursor, fields } = parsed.data;
  const query = withDecodedCursor({ ok: true, value: { since: date, limit, sort: 'newest', ...(cursor ? { cursor } : {}) } });
  return query.ok ? { ok: true, value: { date, query: query.value, fields: fields && new Set(fields) } } : query;
}

const InsightsArgumentsSchema = z.object({
  section: InsightsSectionNameSchema.optional().describe('Return only this section of the insights document.'),
  include_review_ids: z
    .boolean()
    .default(false)
    .describe('Also return the evidence review id lists (`review_ids`); left out by default to keep the answer small.'),
});

/** The value without any `review_ids` key, at any depth (the counts beside them stay). */
function withoutReviewIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutReviewIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, v]) => (key === 'review_ids' ? [] : [[key, withoutReviewIds(v)]])));
}

/** `get_insights`: the document (its stored bytes when whole), or one section, compact unless asked. */
export function getInsights(args: z.output<typeof InsightsArgumentsSchema>, snapshot: Snapshot): ToolAnswer {
  const doc = snapshot.documents.get('insights.json');
  const value = insightsValue(snapshot);
  if (!doc || !value) return { ok: false, code: 'unavailable', detail: 'The insights document is not available.' };
  const { section, include_review_ids } = args;
  if (section === undefined && include_review_ids) return { ok: true, json: doc.body.toString('utf8'), structured: value };
  const picked = section === undefined ? value : pickInsightsSection(value, section);
  return withJson((include_review_ids ? picked : withoutReviewIds(picked)) as object);
}

// Contract §5: every tool only reads, and only this service's own data.
const titled = (title: string) => ({
  title,
  annotations: { title, readOnlyHint: true, openWorldHint: false, destructiveHint: false, idempotentHint: true },
});

// With `fields`, a review carries only the fields asked for.
const PartialReviews = z.array(ReviewSchema.partial()).describe('The reviews; only the requested fields when `fields` was given.');

/** The tools' schemas, made once (tool-schema.ts) and shared by every server instance. */
const SCHEMAS = {
  business: {
    inputSchema: toolInput(z.object({})),
    outputSchema: toolOutput(DatasetDocumentSchema.pick({ business: true, aggregate_rating: true })),
  },
  search: {
    inputSchema: toolInput(SearchArgumentsSchema, { parse: parseSearch, patternKeys: ['fields'] }),
    outputSchema: toolOutput(SearchResultSchema.extend({ reviews: PartialReviews })),
  },
  review: { inputSchema: toolInput(z.object({ id: z.string().describe('The review id.') })), outputSchema: toolOutput(ReviewResultSchema) },
  since: {
    inputSchema: toolInput(SinceArgumentsSchema, { parse: parseSince }),
    outputSchema: toolOutput(
      SinceResultSchema.extend({
        total: z.int().min(0).describe('Reviews dated on or after `since`, over all pages.'),
        count: z.int().min(0).describe('Reviews in this page.'),
        reviews: PartialReviews,
        next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
      }),
    ),
  },
  insights: { inputSchema: toolInput(InsightsArgumentsSchema), outputSchema: toolOutput(InsightsDocumentSchema.partial(), ['review_ids']) },
};

/** The five tools of contract §5, each a thin call into the snapshot queries REST uses. */
export function registerTools(server: McpServer, respond: Respond): void {
  server.registerTool(
    'get_business',
    {
      description:
        'The business: name, contact details, address, opening hours, service catalog, technicians and service areas, with its aggregate star rating over all published reviews. Call this first to learn the ids and names other tools accept.',
      ...titled('Business profile and rating'),
      ...SCHEMAS.business,
    },
    (args) => respond(args, (_, snapshot) => getBusiness(snapshot)),
  );
  server.registerTool(
    'search_reviews',
    {
      description:
        'Find published reviews by exact rating or minimum rating, date range, text, a technician (id, name or alias) or a service id; all filters combine with AND. Pages of `limit` reviews (default 20, at most 100): pass next_cursor back as cursor for more. `fields` (e.g. ["id","rating","text"]) returns only those review fields, to fit more reviews in fewer tokens. The same search as GET /api/reviews/search.',
      ...titled('Search reviews'),
      ...SCHEMAS.search,
    },
    (args) => respond(args, searchReviews),
  );
  server.registerTool(
    'get_review',
    {
      description: 'A single published review by its id, as found in search results or feeds.',
      ...titled('One review'),
      ...SCHEMAS.review,
    },
    (args) => respond(args, getReview),
  );
  server.registerTool(
    'get_reviews_since',
    {
      description:
        'Published reviews dated on or after a date, newest first: what is new since the last visit. Paged: `limit` reviews per page (default 20, at most 100); `total` counts all of them, and next_cursor, passed back as cursor, gets the next page. `fields` (e.g. ["id","date","rating"]) returns only those review fields.',
      ...titled('Reviews since a date'),
      ...SCHEMAS.since,
    },
    (args) => respond(args, ({ date, query, fields }, snapshot) => parsedJson(sincePage(snapshot, date, query, fields).json)),
  );
  server.registerTool(
    'get_insights',
    {
      description:
        'What customers say, computed from the published reviews: aspect sentiment (price, punctuality, ...), technicians, services and areas mentioned, recurring topics, frequently asked questions answered by reviews, and a summary. Compact by default: the evidence review id lists (`review_ids`) are left out, their counts stay; pass include_review_ids: true for them (then get_review fetches one). Pass `section` for one part only.',
      ...titled('Review insights'),
      ...SCHEMAS.insights,
    },
    (args) => respond(args, getInsights),
  );
}
