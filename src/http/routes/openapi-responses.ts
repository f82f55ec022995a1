import type { z } from 'zod';
import { REPRESENTATION_HEADERS, type ResponseHeader, type ResponseSpec } from '../../domain/openapi-spec.js';
import { BARE_JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import { ProblemSchema } from '../problem.js';

/** 304 Not Modified: no body (RFC 9110 §15.4.5), the validators sent again. */
export function notModifiedResponse(extra: ResponseHeader[] = []): ResponseSpec {
  return {
    description:
      'Not Modified: the If-None-Match or If-Modified-Since condition matched. Empty body; ETag and Last-Modified are sent again.',
    headers: [...REPRESENTATION_HEADERS, ...extra],
  };
}

function problemResponse(description: string, example: z.input<typeof ProblemSchema>): ResponseSpec {
  return { description, content: { [BARE_JSON_MEDIA_TYPE]: { schema: ProblemSchema, example } }, headers: ['Cache-Control'] };
}

export const badRequestResponse = problemResponse('Invalid parameters: `issues` lists every problem, with the parameter name in `path`.', {
  type: 'urn:review-data:problem:invalid-parameters',
  title: 'Invalid parameters',
  status: 400,
  detail: 'rating must be a whole number from 1 to 5 (got 9)',
  code: 'invalid_parameters',
  issues: [{ path: ['rating'], code: 'too_big', message: 'rating must be a whole number from 1 to 5 (got 9)' }],
});

export const notFoundResponse = problemResponse('No such resource.', {
  type: 'urn:review-data:problem:not-found',
  title: 'Not found',
  status: 404,
  detail: 'There is no published review with that id.',
  code: 'not_found',
});

/**
 * A 200 with a JSON body; ETag, Last-Modified and Cache-Control are always sent with it. Its example is
 * the operation's answer over the bundled demo (openapi-examples.ts), added when the description is built.
 */
export function jsonResponse(description: string, schema: z.ZodType): ResponseSpec {
  return { description, content: { [BARE_JSON_MEDIA_TYPE]: { schema } }, headers: REPRESENTATION_HEADERS };
}
