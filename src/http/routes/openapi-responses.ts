import type { z } from 'zod';
import { REPRESENTATION_HEADERS, type ResponseHeader, type ResponseSpec } from '../../domain/openapi-spec.js';
import { BARE_JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import type { AppError } from '../../domain/errors.js';
import { problemOf, ProblemSchema } from '../problem.js';

/** 304 Not Modified: no body (RFC 9110 §15.4.5), the validators sent again. */
export function notModifiedResponse(extra: ResponseHeader[] = []): ResponseSpec {
  return {
    description:
      'Not Modified: the If-None-Match or If-Modified-Since condition matched. Empty body; ETag and Last-Modified are sent again.',
    headers: [...REPRESENTATION_HEADERS, ...extra],
  };
}

function problemResponse(description: string, error: AppError): ResponseSpec {
  return {
    description,
    content: { [BARE_JSON_MEDIA_TYPE]: { schema: ProblemSchema, example: problemOf(error) } },
    headers: ['Cache-Control'],
  };
}

/** 400, with the problem `example` is answered with (an error the route throws, so the example is its answer). */
export function badRequestResponse(example: AppError): ResponseSpec {
  return problemResponse('Invalid parameters: `issues` lists every problem, with the parameter name in `path`.', example);
}

/** 404, with the problem `example` is answered with. */
export function notFoundResponse(example: AppError): ResponseSpec {
  return problemResponse('No such resource.', example);
}

/**
 * A 200 with a JSON body; ETag, Last-Modified and Cache-Control are always sent with it. Its example is
 * the operation's answer over the bundled demo (openapi-examples.ts), added when the description is built.
 */
export function jsonResponse(description: string, schema: z.ZodType): ResponseSpec {
  return { description, content: { [BARE_JSON_MEDIA_TYPE]: { schema } }, headers: REPRESENTATION_HEADERS };
}
