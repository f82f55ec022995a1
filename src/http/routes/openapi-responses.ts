import { z } from 'zod';
import { BARE_JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import { ProblemSchema } from '../problem.js';

/**
 * 304 Not Modified: no body (RFC 9110 §15.4.5). A `null` schema is how @fastify/swagger documents a
 * response without content.
 */
export const notModifiedResponse = z
  .null()
  .describe('Not Modified: the If-None-Match or If-Modified-Since condition matched. Empty body; ETag and Last-Modified are sent again.');

export const badRequestResponse = {
  description: 'Invalid parameters: `issues` lists every problem, with the parameter name in `path`.',
  content: { [BARE_JSON_MEDIA_TYPE]: { schema: ProblemSchema } },
};

export const notFoundResponse = {
  description: 'No such resource.',
  content: { [BARE_JSON_MEDIA_TYPE]: { schema: ProblemSchema } },
};

/** A 200 with a JSON body; ETag, Last-Modified and Cache-Control are always sent with it. */
export function jsonResponse(description: string, schema: z.ZodType) {
  return {
    description: `${description} Sent with ETag, Last-Modified and Cache-Control.`,
    content: { [BARE_JSON_MEDIA_TYPE]: { schema } },
  };
}
