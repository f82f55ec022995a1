import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { toIssues, type ErrorCode, type Issue } from '../domain/errors.js';
import type { Review } from '../domain/review.js';
import { ReviewResultSchema } from '../domain/results.js';
import type { ParseResult } from '../domain/search-params.js';
import { withDecodedCursor } from '../domain/search-query.js';
import {
  BusinessResultSchema,
  parseSearchToolArguments,
  SearchArgumentsSchema,
  SearchToolResultSchema,
  SinceArgumentsSchema,
  SinceToolResultSchema,
  type SearchArguments,
} from '../domain/tool-arguments.js';
import { InsightsDocumentSchema, InsightsSectionNameSchema } from '../insights/schema.js';
import { pickInsightsSection } from '../insights/sections.js';
import { insightsValue } from '../snapshot/insights-value.js';
import { findReview, reviewAnswerJson, searchBody, searchEnvelope, sinceDateIssue, sincePage } from '../snapshot/queries.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { toolInput, toolOutput } from './tool-schema.js';

/** A tool's answer: its JSON text and the same value for `structuredContent`, or why there is none. */
export type ToolAnswer = { ok: true; json: string; structured: object } | ToolFailure;
export type ToolFailure = { ok: false; code: ErrorCode; detail: string; issues?: Issue[] };

/** Runs a call: invalid arguments are a tool error with their issues, else `answer` on the current snapshot. */
export type Respond = <T>(args: ParseResult<T>, answer: (value: T, snapshot: Snapshot) => ToolAnswer) => Promise<CallToolResult>;

const withJson = (structured: object): ToolAnswer => ({ ok: true, json: JSON.stringify(structured), structured });
const parsedJson = (json: string): ToolAnswer => ({ ok: true, json, structured: JSON.parse(json) as object });

/** `get_business`: `{ business, aggregate_rating }`, as in /reviews.json. */
export const getBusiness = (snapshot: Snapshot) =>
  withJson({ business: snapshot.view.business, aggregate_rating: snapshot.view.aggregate });

/**
 * `search_reviews`: the REST search answer, its text the REST bytes (the snapshot's review bytes and the
 * envelope), and structuredContent the same value made of the snapshot's review objects instead of
 * parsed back from the text; with `fields`, both carry only those fields, in each review's own order.
 */
export function searchReviews({ query, fields }: SearchArguments, snapshot: Snapshot): ToolAnswer {
  const page = snapshot.index.search(query);
  const pick = (r: Review) => (fields ? Object.fromEntries(Object.entries(r).filter(([key]) => fields.has(key))) : r);
  const { positions, total, limit, next_cursor, filters } = page;
  const reviews = positions.map((p) => pick(snapshot.view.reviews[p]!));
  const structured = { reviews, count: reviews.length, total, limit, next_cursor, filters };
  if (fields) return withJson(structured);
  return { ok: true, json: searchBody(snapshot, positions, searchEnvelope(page)).toString('utf8'), structured };
}

/** `get_review`: `{ review }` as GET /api/reviews/{id} answers it; an unknown or unpublished id is a tool error. */
export function getReview({ id }: { id: string }, snapshot: Snapshot): ToolAnswer {
  const review = findReview(snapshot, id);
  if (!review) return { ok: false, code: 'not_found', detail: 'There is no published review with that id.' };
  return parsedJson(reviewAnswerJson(review));
}

type SinceArguments = Pick<SearchArguments, 'query' | 'fields'> & { date: string };

/** The since arguments, a bad date read exactly as the REST 400 for that date reads; pages are `newest` searches. */
function parseSince(args: Record<string, unknown>): ParseResult<SinceArguments> {
  const parsed = SinceArgumentsSchema.safeParse(args);
  const given = args.date;
  const issue = (i: Issue) => (i.path[0] === 'date' && typeof given === 'string' ? sinceDateIssue(given) : i);
  if (!parsed.success) return { ok: false, issues: toIssues(parsed.error).map(issue) };
  const { date, limit, cursor, fields } = parsed.data;
  const query = withDecodedCursor({ ok: true, value: { since: date, limit, sort: 'newest', ...(cursor ? { cursor } : {}) } });
  return query.ok ? { ok: true, value: { date, query: query.value, ...(fields ? { fields: new Set(fields) } : {}) } } : query;
}

const InsightsArgumentsSchema = z.object({
  section: InsightsSectionNameSchema.optional().describe('Return only this section of the insights document.'),
  include_review_ids: z.boolean().default(false).describe('Also return the evidence review id lists (`review_ids`), left out by default.'),
});

/** The value without any `review_ids` key, at any depth (the counts beside them stay). */
function withoutReviewIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutReviewIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, v]) => (key === 'review_ids' ? [] : [[key, withoutReviewIds(v)]])));
}

/** `get_insights`: the document (its stored bytes when whole), or one section, without `review_ids` unless asked. */
export function getInsights({ section, include_review_ids }: z.output<typeof InsightsArgumentsSchema>, snapshot: Snapshot): ToolAnswer {
  const doc = snapshot.documents.get('insights.json');
  const value = insightsValue(snapshot);
  if (!doc || !value) return { ok: false, code: 'unavailable', detail: 'The insights document is not available.' };
  if (section === undefined && include_review_ids) return { ok: true, json: doc.body.toString('utf8'), structured: value };
  const picked = section === undefined ? value : pickInsightsSection(value, section);
  return withJson((include_review_ids ? picked : withoutReviewIds(picked)) as object);
}

// Contract §5: every tool only reads, and only this service's own data.
const annotations = { readOnlyHint: true, openWorldHint: false, destructiveHint: false, idempotentHint: true };

// Each tool's listing and schemas, made once (tool-schema.ts) for every server instance.
const TOOLS = {
  get_business: {
    title: 'Business profile and rating',
    description:
      'The business: name, contact details, address, opening hours, service catalog, technicians and service areas, with its aggregate star rating over all published reviews. Call this first to learn the ids and names other tools accept.',
    inputSchema: toolInput(z.object({})),
    outputSchema: toolOutput(BusinessResultSchema),
  },
  search_reviews: {
    title: 'Search reviews',
    description:
      'Find published reviews by exact rating or minimum rating, date range, text, a technician (id, name or alias) or a service id; all filters combine with AND. Pages of `limit` reviews (default 20, at most 100): pass next_cursor back as cursor for more. `fields` (e.g. ["id","rating","text"]) returns only those review fields, to fit more reviews in fewer tokens. The same search as GET /api/reviews/search.',
    // `properties` stay the REST search parameters, one for one; `fields` is MCP's own (tool-schema.ts).
    inputSchema: toolInput(SearchArgumentsSchema, { parse: parseSearchToolArguments, patternKeys: ['fields'] }),
    outputSchema: toolOutput(SearchToolResultSchema),
  },
  get_review: {
    title: 'One review',
    description: 'A single published review by its id, as found in search results or feeds.',
    inputSchema: toolInput(z.object({ id: z.string().describe('The review id.') })),
    outputSchema: toolOutput(ReviewResultSchema),
  },
  get_reviews_since: {
    title: 'Reviews since a date',
    description:
      'Published reviews dated on or after a date, newest first: what is new since the last visit. Paged: `limit` reviews per page (default 20, at most 100); `total` counts all of them, and next_cursor, passed back as cursor, gets the next page. `fields` (e.g. ["id","date","rating"]) returns only those review fields.',
    inputSchema: toolInput(SinceArgumentsSchema, { parse: parseSince }),
    outputSchema: toolOutput(SinceToolResultSchema),
  },
  get_insights: {
    title: 'Review insights',
    description:
      'What customers say, computed from the published reviews: aspect sentiment (price, punctuality, ...), technicians, services and areas mentioned, recurring topics, frequently asked questions answered by reviews, and a summary. Compact by default: the evidence review id lists (`review_ids`) are left out, their counts stay; pass include_review_ids: true for them (then get_review fetches one). Pass `section` for one part only.',
    inputSchema: toolInput(InsightsArgumentsSchema),
    outputSchema: toolOutput(InsightsDocumentSchema.partial(), ['review_ids']),
  },
};

/** The five tools of contract §5, each a thin call into the snapshot queries REST uses. */
export function registerTools(server: McpServer, respond: Respond): void {
  server.registerTool('get_business', { ...TOOLS.get_business, annotations }, (args) =>
    respond(args, (_, snapshot) => getBusiness(snapshot)),
  );
  server.registerTool('search_reviews', { ...TOOLS.search_reviews, annotations }, (args) => respond(args, searchReviews));
  server.registerTool('get_review', { ...TOOLS.get_review, annotations }, (args) => respond(args, getReview));
  server.registerTool('get_reviews_since', { ...TOOLS.get_reviews_since, annotations }, (args) =>
    respond(args, ({ date, query, fields }, snapshot) => parsedJson(sincePage(snapshot, date, query, fields).json)),
  );
  server.registerTool('get_insights', { ...TOOLS.get_insights, annotations }, (args) => respond(args, getInsights));
}
