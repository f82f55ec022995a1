import { z } from 'zod';
import { DateSchema, isCalendarDate } from './dates.js';
import { toIssues, type Issue } from './errors.js';

export const SORTS = ['newest', 'oldest', 'highest', 'lowest'] as const;
export type Sort = (typeof SORTS)[number];

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
const QUERY_MAX = 500;
const NAME_MAX = 200;
const CURSOR_MAX = 1000;

/** A message that names the parameter and what it accepts, whatever the value was. */
function msg(name: string, expected: string) {
  return { error: (issue: { input?: unknown }) => `${name} must be ${expected} (got ${JSON.stringify(issue.input)})` };
}
const ratingMsg = msg('rating', 'a whole number from 1 to 5');
const minRatingMsg = msg('min_rating', 'a number from 1 to 5');
const limitMsg = msg('limit', `a whole number from 1 to ${SEARCH_LIMIT_MAX}`);

/**
 * The search parameters (spec §4.5, contract §4): one schema for REST validation, the OpenAPI
 * parameters and the MCP `search_reviews` input, so the transports can never disagree.
 */
export const SearchFieldsSchema = z.object({
  rating: z.int(ratingMsg).min(1, ratingMsg).max(5, ratingMsg).optional().describe('Exact star rating.'),
  min_rating: z.number(minRatingMsg).min(1, minRatingMsg).max(5, minRatingMsg).optional().describe('Minimum star rating, inclusive.'),
  since: DateSchema.optional().describe('Only reviews dated on or after this date (YYYY-MM-DD).'),
  until: DateSchema.optional().describe('Only reviews dated on or before this date (YYYY-MM-DD).'),
  query: z.string().max(QUERY_MAX).optional().describe('Case-insensitive substring of the review title or text.'),
  mentions_technician: z.string().max(NAME_MAX).optional().describe("A technician's id, name or alias, case-insensitive."),
  mentions_service: z.string().max(NAME_MAX).optional().describe('A service id.'),
  limit: z
    .int(limitMsg)
    .min(1, limitMsg)
    .max(SEARCH_LIMIT_MAX, limitMsg)
    .optional()
    .describe(`Maximum number of reviews returned (default ${SEARCH_LIMIT_DEFAULT}).`),
  sort: z
    .enum(SORTS, msg('sort', `one of ${SORTS.join(', ')}`))
    .optional()
    .describe('Result order (default newest).'),
  cursor: z.string().max(CURSOR_MAX).optional().describe('Opaque cursor from a previous next_cursor, for the next page.'),
});

/** The fields plus the rules that span them. */
export const SearchParamsSchema = SearchFieldsSchema.superRefine((p, ctx) => {
  if (p.since !== undefined && p.until !== undefined && p.since > p.until) {
    ctx.addIssue({
      code: 'custom',
      path: ['since'],
      message: `since (${p.since}) is after until (${p.until})`,
    });
  }
});
export type SearchParams = z.infer<typeof SearchParamsSchema>;

/** The filters a search applied, echoed back in its response. */
export const FILTER_KEYS = ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service'] as const;

const FIELD_KEYS = Object.keys(SearchFieldsSchema.shape);
const NUMERIC_KEYS = new Set(['rating', 'min_rating', 'limit']);
// Plain decimal notation only: "1e2", "0x10", " 5" and "" are not numbers a person types in a URL.
const DECIMAL = /^-?\d+(\.\d+)?$/;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/**
 * Reads the search parameters from a parsed query string. Contract §4: an empty value counts as
 * absent, a repeated parameter is invalid, unknown parameters are ignored, every problem is listed.
 */
export function parseSearchQuery(raw: Record<string, unknown>): ParseResult<SearchParams> {
  const issues: Issue[] = [];
  const input: Record<string, unknown> = {};
  for (const key of FIELD_KEYS) {
    const value = raw[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      issues.push({
        path: [key],
        code: 'repeated_parameter',
        message: `${key} is given ${value.length} times; give it once`,
      });
      continue;
    }
    if (typeof value !== 'string' || value === '') continue;
    if (NUMERIC_KEYS.has(key)) {
      input[key] = DECIMAL.test(value) ? Number(value) : value;
    } else {
      input[key] = value;
    }
  }
  // `rating[]=1` or `limit[0]=5` is a known parameter in a form this API does not take: saying so beats
  // ignoring it as unknown and answering as if no filter had been asked for.
  for (const key in raw) {
    if (!key.includes('[')) continue;
    const base = /^([a-z_]+)\[[^\]]*\]/.exec(key)?.[1];
    if (base && base in SearchFieldsSchema.shape) {
      issues.push({
        path: [key],
        code: 'unsupported_parameter',
        message: `${key} is not accepted: give ${base}=VALUE, once, without brackets`,
      });
    }
  }
  if (issues.length === 0 && isValidSearchParams(input)) return { ok: true, value: input };
  const parsed = SearchParamsSchema.safeParse(input);
  if (!parsed.success) issues.push(...toIssues(parsed.error));
  if (issues.length > 0) return { ok: false, issues: uniqueIssues(issues) };
  return { ok: true, value: parsed.success ? parsed.data : {} };
}

const isIntIn = (v: unknown, min: number, max: number) => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const isStringUpTo = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;

/**
 * True when SearchParamsSchema would accept `p` as it is: the rules of the schema, checked without
 * it, because on the search path its parse showed in a CPU profile and nearly every request
 * is valid. Anything this does not accept goes through the schema, which gives the messages; a property
 * test keeps the two in agreement.
 */
export function isValidSearchParams(p: Record<string, unknown>): p is SearchParams {
  for (const key in p) {
    const v = p[key];
    let ok: boolean;
    switch (key) {
      case 'rating':
        ok = isIntIn(v, 1, 5);
        break;
      case 'min_rating':
        ok = typeof v === 'number' && v >= 1 && v <= 5;
        break;
      case 'limit':
        ok = isIntIn(v, 1, SEARCH_LIMIT_MAX);
        break;
      case 'since':
      case 'until':
        ok = typeof v === 'string' && isCalendarDate(v);
        break;
      case 'query':
        ok = isStringUpTo(v, QUERY_MAX);
        break;
      case 'mentions_technician':
      case 'mentions_service':
        ok = isStringUpTo(v, NAME_MAX);
        break;
      case 'sort':
        ok = (SORTS as readonly unknown[]).includes(v);
        break;
      case 'cursor':
        ok = isStringUpTo(v, CURSOR_MAX);
        break;
      default:
        ok = false;
    }
    if (!ok) return false;
  }
  return !(typeof p.since === 'string' && typeof p.until === 'string' && p.since > p.until);
}

/**
 * One issue per parameter and message: a huge `limit` fails both the integer and the maximum check,
 * each with the same message naming what limit accepts; the client needs to read it once.
 */
function uniqueIssues(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path.join('.')}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Validates MCP `search_reviews` arguments (JSON numbers) with the same schema and issue format. */
export function parseSearchArguments(args: unknown): ParseResult<SearchParams> {
  const parsed = SearchParamsSchema.safeParse(args ?? {});
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: uniqueIssues(toIssues(parsed.error)) };
}
