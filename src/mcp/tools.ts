import { z } from 'zod';
import { DatasetDocumentSchema } from '../domain/dataset.js';
import { DateSchema } from '../domain/dates.js';
import { ERROR_CODES, toIssues, type ErrorCode, type Issue } from '../domain/errors.js';
import { ReviewResultSchema, SearchResultSchema, SinceResultSchema } from '../domain/results.js';
import { parseSearchArguments, SEARCH_LIMIT_MAX, SearchFieldsSchema } from '../domain/search-params.js';
import { withDecodedCursor } from '../domain/search-query.js';
import { InsightsDocumentSchema, InsightsSectionNameSchema, type InsightsDocument } from '../insights/schema.js';
import { pickInsightsSection } from '../insights/sections.js';
import { findReview, searchReviews, sinceAnswer, sinceDateIssue } from '../snapshot/queries.js';
import type { Snapshot } from '../snapshot/snapshot.js';

/** What a tool call produced: the JSON text of a result, or an error (contract §5). */
export type ToolOutcome = { ok: true; json: string } | { ok: false; code: ErrorCode; detail: string; issues?: Issue[] };

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** Validation happens in `call`, with the REST rules; these schemas are what tools/list shows. */
  inputSchema: z.ZodType;
  outputSchema: z.ZodType;
  call(args: Record<string, unknown>, snapshot: Snapshot): ToolOutcome;
}

// MCP `get_reviews_since` caps its page like search does; without `limit` it returns every match.
export const SINCE_LIMIT_MAX = SEARCH_LIMIT_MAX;

export const BusinessResultSchema = DatasetDocumentSchema.pick({ business: true, aggregate_rating: true });

export const SinceArgumentsSchema = z.object({
  date: DateSchema.describe('A calendar date, YYYY-MM-DD: reviews dated on or after it.'),
  limit: z
    .int()
    .min(1)
    .max(SINCE_LIMIT_MAX)
    .optional()
    .describe(`Return at most this many (newest first), 1 to ${SINCE_LIMIT_MAX}; omit it for all.`),
});

export const InsightsArgumentsSchema = z.object({
  section: InsightsSectionNameSchema.optional().describe('Return only this section of the insights document.'),
});

const invalid = (issues: Issue[]): ToolOutcome => ({
  ok: false,
  code: 'invalid_parameters',
  detail: issues.map((i) => i.message).join('; '),
  issues,
});

// get_business answers the same bytes until the data changes.
const businessJson = new WeakMap<Snapshot, string>();

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
        let json = businessJson.get(snapshot);
        if (json === undefined) {
          json = JSON.stringify({ business: snapshot.view.business, aggregate_rating: snapshot.view.aggregate });
          businessJson.set(snapshot, json);
        }
        return { ok: true, json };
      },
    },
    {
      name: 'search_reviews',
      title: 'Search reviews',
      description:
        'Find published reviews by exact rating or minimum rating, date range, text, a technician (id, name or alias) or a service id; all filters combine with AND. Results are paged: pass next_cursor back as cursor. The same search as GET /api/reviews/search.',
      inputSchema: SearchFieldsSchema,
      outputSchema: SearchResultSchema,
      call(args, snapshot) {
        const parsed = withDecodedCursor(parseSearchArguments(args));
        if (!parsed.ok) return invalid(parsed.issues);
        return { ok: true, json: searchReviews(snapshot, parsed.value).json };
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
        'Every published review dated on or after a date, newest first: what is new since the last visit. `total` counts all of them; `limit` caps how many are returned.',
      inputSchema: SinceArgumentsSchema,
      outputSchema: SinceResultSchema,
      call(args, snapshot) {
        const parsed = SinceArgumentsSchema.safeParse(args);
        if (!parsed.success) {
          // A bad date reads exactly as the REST 400 for the same date does.
          const date = args.date;
          const issues = toIssues(parsed.error).map((i) => (i.path[0] === 'date' && typeof date === 'string' ? sinceDateIssue(date) : i));
          return invalid(issues);
        }
        const { date, limit } = parsed.data;
        return { ok: true, json: sinceAnswer(snapshot, date, limit).json };
      },
    },
    {
      name: 'get_insights',
      title: 'Review insights',
      description:
        'What customers say, computed from the published reviews: aspect sentiment (price, punctuality, ...), technicians, services and areas mentioned, recurring topics, frequently asked questions answered by reviews, and a summary. Pass `section` for one part only.',
      inputSchema: InsightsArgumentsSchema,
      outputSchema: insightsOutput,
      call(args, snapshot) {
        const parsed = InsightsArgumentsSchema.safeParse(args);
        if (!parsed.success) return invalid(toIssues(parsed.error));
        const doc = snapshot.documents.get('insights.json');
        if (!doc) return { ok: false, code: 'unavailable', detail: 'The insights document is not available.' };
        const { section } = parsed.data;
        if (section === undefined) return { ok: true, json: doc.body.toString('utf8') };
        const value = snapshot.values.get('insights.json') as InsightsDocument | undefined;
        if (!value) return { ok: false, code: 'unavailable', detail: 'The insights document is not available.' };
        return { ok: true, json: JSON.stringify(pickInsightsSection(value, section)) };
      },
    },
  ];
}

/** A tool error as JSON text: the REST problem shape, with the same `issues` (contract §5). */
export function toolErrorJson(outcome: Extract<ToolOutcome, { ok: false }>): string {
  const { title } = ERROR_CODES[outcome.code];
  return JSON.stringify({ title, code: outcome.code, detail: outcome.detail, ...(outcome.issues ? { issues: outcome.issues } : {}) });
}
