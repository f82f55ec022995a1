import type { HeaderList } from './prepared-response.js';

/** Headers a browser script may read (contract §4). */
export const EXPOSED_HEADERS = ['ETag', 'Last-Modified', 'Link', 'Mcp-Session-Id'];

/**
 * What @fastify/cors (registered by the app with EXPOSED_HEADERS and origin `*`) adds to an answer that
 * is not a preflight: prepared answers, written without Fastify's reply, start with the same.
 */
export const CORS_HEADERS: HeaderList = Object.freeze([
  'access-control-allow-origin',
  '*',
  'access-control-expose-headers',
  EXPOSED_HEADERS.join(', '),
]);
