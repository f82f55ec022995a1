import { z } from 'zod';
import { DatasetDocumentSchema } from '../domain/dataset.js';
import { DateSchema } from '../domain/dates.js';
import { ERROR_CODES, toIssues, type ErrorCode, type Issue } from '../domain/errors.js';
import { ReviewFieldsSchema } from '../domain/review-fields.js';
import { ReviewSchema } from '../domain/review.js';
import { ReviewResultSchema, SearchResultSchema, SinceResultSchema } from '../domain/results.js';
import {
  isValidSearchParams,
  parseSearchArguments,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SearchFieldsSchema,
  type ParseResult,
  type SearchParams,
} from '../domain/search-params.js';
import { withDecodedCursor } from '../domain/search-query.js';
import { InsightsDocumentSchema, InsightsSectionNameSchema, type InsightsDocument } from '../insights/schema.js';
import { pickInsightsSection } from '../insights/sections.js';
import { findReview, sinceDateIssue, sincePage } from '../snapshot/queries.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { insightsValue } from '../snapshot/insights-value.js';
import { answerBytes } from './reply-bytes.js';
import { keptSearchPage } from './search-page.js';

/**
 * What a tool call produced: the JSON text of a result, with the same value as an object when the tool
 * has it at hand (else `structuredContent` is the text parsed), or an error (contract §5).
 */
export type ToolOutcome =
  { ok: true; json: string; structured?: Record<string, unknown> } | { ok: false; code: ErrorCode; detail: string; issues?: Issue[] };

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** Validation happens in `call`, with the REST rules; these schemas are what tools/list shows. */
  inputSchema: z.ZodType;
  outputSchema: z.ZodType;
  /** Arguments listed under `patternProperties` rather than `properties` (see withPatternKeys). */
  patternKeys?: readonly string[];
  /** Keys the answer may leave out wherever they appear (dropped from every `required` of the outputSchema). */
  omittableKeys?: readonly string[];
  call(args: Record<string, unknown>, snapshot: Snapshot): ToolOutcome;
}

// MCP `get_reviews_since` pages like search does (contract §5: limit 1..100, default 20, cursor).
export const SINCE_LIMIT_MAX = SEARCH_LIMIT_MAX;
export const SINCE_LIMIT_DEFAULT = SEARCH_LIMIT_DEFAULT;

export const BusinessResultSchema = DatasetDocumentSchema.pick({ business: true, aggregate_rating: true });

export const SinceArgumentsSchema = z.object({
  date: DateSchema.describe('A calendar date, YYYY-MM-DD: reviews dated on or after it.'),
  limit: z
    .int()
    .min(1)
    .max(SINCE_LIMIT_MAX)
    .default(SINCE_LIMIT_DEFAULT)
    .describe(`Reviews per page (newest first), 1 to ${SINCE_LIMIT_MAX}, default ${SINCE_LIMIT_DEFAULT}.`),
  cursor: z.string().max(1000).optional().describe('Opaque cursor from a previous next_cursor, for the next page.'),
  fields: ReviewFieldsSchema,
});

/** `search_reviews`: the REST search parameters, plus `fields` (contract §5). */
export const SearchArgumentsSchema = SearchFieldsSchema.extend({ fields: ReviewFieldsSchema });

// With `fields`, a review carries only the fields asked for.
const PartialReviewsSchema = z.array(ReviewSchema.partial()).describe('The reviews; only the requested fields when `fields` was given.');

export const SearchToolResultSchema = SearchResultSchema.extend({ reviews: PartialReviewsSchema });

export const SinceToolResultSchema = SinceResultSchema.extend({
  total: z.int().min(0).describe('Reviews dated on or after `since`, over all pages.'),
  count: z.int().min(0).describe('Reviews in this page.'),
  reviews: PartialReviewsSchema,
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
});

export const InsightsArgumentsSchema = z.object({
  section: InsightsSectionNameSchema.optional().describe('Return only this section of the insights document.'),
  include_review_ids: z
    .boolean()
    .default(false)
    .describe('Also return the evidence review id lists (`review_ids`); left out by default to keep the answer small.'),
});

const invalid = (issues: Issue[]): ToolOutcome => ({
  ok: false,
  code: 'invalid_parameters',
  detail: issues.map((i) => i.message).join('; '),
  issues,
});

// get_business answers the same bytes until the data changes.
const businessAnswers = new WeakMap<Snapshot, { json: string; structured: Record<string, unknown> }>();

/** The value without any `review_ids` key, at any depth (the counts beside them stay). */
function withoutReviewIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutReviewIds);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (key !== 'review_ids') out[key] = withoutReviewIds(v);
  return out;
}

// The compact insights document, computed once per snapshot.
const compactInsights = new WeakMap<Snapshot, InsightsDocument>();

/** One field list as a set, or undefined when the whole review is wanted. */
const fieldSet = (fields: readonly string[] | undefined) => (fields ? new Set(fields) : undefined);

/**
 * The five tools of contract §5, each a thin call into the same snapshot queries REST uses, so an
 * MCP answer and its REST twin can never disagree.
 */
export function createTools(): ToolDefinition[] {
  const insightsOutput = InsightsDocumentSchema.partial();
  return [
    {
      name: 'get_business',
      title: 'Business profile and rating',
      description:
        'The business: name, contact details, address, opening hours, service catalog, technicians and service areas, with its aggregate star rating over all published reviews. Call this first to learn the ids and names other tools accept.',
      inputSchema: z.object({}),
      outputSchema: BusinessResultSchema,
      call(_args, snapshot) {
        let answer = businessAnswers.get(snapshot);
        if (answer === undefined) {
          const structured = { business: snapshot.view.business, aggregate_rating: snapshot.view.aggregate };
          const json = JSON.stringify(structured);
          answerBytes(structured, json);
          answer = { json, structured };
          businessAnswers.set(snapshot, answer);
        }
        return { ok: true, ...answer };
      },
    },
    {
      name: 'search_reviews',
      title: 'Search reviews',
      description:
        'Find published reviews by exact rating or minimum rating, date range, text, a technician (id, name or alias) or a service id; all filters combine with AND. Pages of `limit` reviews (default 20, at most 100): pass next_cursor back as cursor for more. `fields` (e.g. ["id","rating","text"]) returns only those review fields, to fit more reviews in fewer tokens. The same search as GET /api/reviews/search.',
      inputSchema: SearchArgumentsSchema,
      // `properties` stay the REST search parameters, one for one; `fields` is MCP's own (contract §5).
      patternKeys: ['fields'],
      outputSchema: SearchToolResultSchema,
      call(args, snapshot) {
        const { fields: rawFields, ...rest } = args;
        // No `fields` is valid (it is optional): its schema runs only when it is given.
        const fields = rawFields === undefined ? undefined : ReviewFieldsSchema.safeParse(rawFields);
        // Valid arguments, nearly every call, are recognised without the schema, as REST does (issue 15).
        const params: ParseResult<SearchParams> = isValidSearchParams(rest) ? { ok: true, value: rest } : parseSearchArguments(rest);
        const parsed = withDecodedCursor(params);
        if (!parsed.ok || (fields && !fields.success))
          return invalid([...(parsed.ok ? [] : parsed.issues), ...(fields?.error ? toIssues(fields.error, ['fields']) : [])]);
        const { json, structured } = keptSearchPage(snapshot, parsed.value, fields?.data);
        return { ok: true, json, structured };
      },
    },
    {
      name: 'get_review',
      title: 'One review',
      description: 'A single published review by its id, as found in search results or feeds.',
      inputSchema: z.object({ id: z.string().describe('The review id.') }),
      outputSchema: ReviewResultSchema,
      call(args, snapshot) {
        const parsed = z.object({ id: z.string() }).safeParse(args);
        if (!parsed.success) return invalid(toIssues(parsed.error));
        const review = findReview(snapshot, parsed.data.id);
        if (!review) return { ok: false, code: 'not_found', detail: 'There is no published review with that id.' };
        return { ok: true, json: `{"review":${review.json}}` };
      },
    },
    {
      name: 'get_reviews_since',
      title: 'Reviews since a date',
      description:
        'Published reviews dated on or after a date, newest first: what is new since the last visit. Paged: `limit` reviews per page (default 20, at most 100); `total` counts all of them, and next_cursor, passed back as cursor, gets the next page. `fields` (e.g. ["id","date","rating"]) returns only those review fields.',
      inputSchema: SinceArgumentsSchema,
      outputSchema: SinceToolResultSchema,
      call(args, snapshot) {
        const parsed = SinceArgumentsSchema.safeParse(args);
        if (!parsed.success) {
          // A bad date reads exactly as the REST 400 for the same date does.
          const date = args.date;
          const issues = toIssues(parsed.error).map((i) => (i.path[0] === 'date' && typeof date === 'string' ? sinceDateIssue(date) : i));
          return invalid(issues);
        }
        const { date, limit, cursor, fields } = parsed.data;
        const query = withDecodedCursor({ ok: true, value: { since: date, limit, sort: 'newest', ...(cursor ? { cursor } : {}) } });
        if (!query.ok) return invalid(query.issues);
        return { ok: true, json: sincePage(snapshot, date, query.value, fieldSet(fields)).json };
      },
    },
    {
      name: 'get_insights',
      title: 'Review insights',
      description:
        'What customers say, computed from the published reviews: aspect sentiment (price, punctuality, ...), technicians, services and areas mentioned, recurring topics, frequently asked questions answered by reviews, and a summary. Compact by default: the evidence review id lists (`review_ids`) are left out, their counts stay; pass include_review_ids: true for them (then get_review fetches one). Pass `section` for one part only.',
      inputSchema: InsightsArgumentsSchema,
      outputSchema: insightsOutput,
      omittableKeys: ['review_ids'],
      call(args, snapshot) {
        const parsed = InsightsArgumentsSchema.safeParse(args);
        if (!parsed.success) return invalid(toIssues(parsed.error));
        const doc = snapshot.documents.get('insights.json');
        const value = insightsValue(snapshot);
        if (!doc || !value) return { ok: false, code: 'unavailable', detail: 'The insights document is not available.' };
        const { section, include_review_ids } = parsed.data;
        if (section === undefined && include_review_ids) return { ok: true, json: doc.body.toString('utf8') };
        let shown = value;
        if (!include_review_ids) {
          shown = compactInsights.get(snapshot) ?? (withoutReviewIds(value) as InsightsDocument);
          compactInsights.set(snapshot, shown);
        }
        return { ok: true, json: JSON.stringify(section === undefined ? shown : pickInsightsSection(shown, section)) };
      },
    },
  ];
}

/** A tool error as JSON text: the REST problem shape, with the same `issues` (contract §5). */
export function toolErrorJson(outcome: Extract<ToolOutcome, { ok: false }>): string {
  const { title } = ERROR_CODES[outcome.code];
  return JSON.stringify({ title, code: outcome.code, detail: outcome.detail, ...(outcome.issues ? { issues: outcome.issues } : {}) });
}
