import type { z } from 'zod';
import { ProblemSchema } from '../problem.js';

/** Response headers every cacheable 200 carries (RFC 9110 §8.8, contract §4). */
const CACHE_HEADERS = {
  ETag: { description: 'Strong entity tag derived from the content.', schema: { type: 'string' } },
  'Last-Modified': { description: 'Newest updated_at among the reviews in the response.', schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string' } },
};

export function withHeaders<T extends object>(response: T): T & { headers: typeof CACHE_HEADERS } {
  return { ...response, headers: CACHE_HEADERS };
}

/** 304 Not Modified: no body, the validators again (RFC 9110 §15.4.5). */
export const notModifiedResponse = {
  description: 'Not Modified: the If-None-Match or If-Modified-Since condition matched. Empty body.',
  content: {},
  headers: { ETag: CACHE_HEADERS.ETag, 'Last-Modified': CACHE_HEADERS['Last-Modified'] },
};

export const badRequestResponse = {
  description: 'Invalid parameters: `issues` lists every problem, with the parameter name in `path`.',
  content: { 'application/json': { schema: ProblemSchema } },
};

export const notFoundResponse = {
  description: 'No such resource.',
  content: { 'application/json': { schema: ProblemSchema } },
};

export function jsonResponse(description: string, schema: z.ZodType) {
  return withHeaders({ description, content: { 'application/json': { schema } } });
}
