import type { z } from 'zod';

/**
 * How a route documents a response in the OpenAPI description (http/openapi-document.ts turns these
 * into the document): here, in the domain, so every transport (REST, MCP, the hub) can say what it
 * sends without importing the HTTP layer.
 */

/** Every response header the API sends on purpose, described once (CORS headers aside). */
export const RESPONSE_HEADERS = {
  ETag: { type: 'string', description: 'Strong validator of the representation (RFC 9110 §8.8.3); send it back in If-None-Match.' },
  'Last-Modified': {
    type: 'string',
    description: 'When the data behind the representation last changed, as an HTTP date (RFC 9110 §8.8.2).',
  },
  'Cache-Control': { type: 'string', description: '`public, max-age=60` on data, `no-store` on errors, MCP and hub answers.' },
  Vary: { type: 'string', description: '`Accept-Encoding`, and `Accept` where the media type is negotiated.' },
  Link: { type: 'string', description: 'On WebSub topics: `<hub>; rel="hub", <topic>; rel="self"` (WebSub §4).' },
  'Mcp-Session-Id': {
    type: 'string',
    description:
      'Sent with the answer to `initialize` (protocol 2024-11-05 to 2025-11-25); every later request of the session sends it back.',
  },
  'Retry-After': { type: 'integer', description: 'Seconds to wait before trying again (RFC 9110 §10.2.3).' },
} as const;
export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** Headers of every conditional GET answer, 200 and 304 alike (http/representation.ts). */
export const REPRESENTATION_HEADERS: ResponseHeader[] = ['ETag', 'Last-Modified', 'Cache-Control', 'Vary'];

/**
 * A documented response: what the route schemas write. `content` values carry the zod schema and
 * an example; `headers` names what the response sends.
 */
export interface ResponseSpec {
  description: string;
  content?: Record<string, { schema: z.ZodType; example?: unknown }>;
  headers?: ResponseHeader[];
}
