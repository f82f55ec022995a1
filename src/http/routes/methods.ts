import type { FastifyInstance } from 'fastify';
import { problemFor, sendProblem } from '../problem.js';

const READ_ONLY_ALLOW = 'GET, HEAD, OPTIONS';

/**
 * Methods Fastify does not route by default. Known to the router, they reach the 405 below on an existing
 * resource instead of the not-found handler's 404 (TRACE and PROPFIND used to answer 404).
 */
const EXTRA_METHODS: [string, boolean][] = [
  ['TRACE', false],
  ['PROPFIND', true],
  ['PROPPATCH', true],
  ['MKCOL', true],
  ['COPY', false],
  ['MOVE', false],
  ['LOCK', true],
  ['UNLOCK', false],
  ['SEARCH', true],
  ['REPORT', true],
];

/** Call once, before any route: lets `rejectOtherMethods` answer the methods above too. */
export function registerExtraMethods(app: FastifyInstance): void {
  const known = new Set(app.supportedMethods);
  for (const [method, hasBody] of EXTRA_METHODS) if (!known.has(method)) app.addHttpMethod(method, { hasBody });
}

/** Every read-only path answers other methods with 405 and `Allow` (RFC 9110 §15.5.6, contract §4). */
export function rejectOtherMethods(app: FastifyInstance, url: string, allow = READ_ONLY_ALLOW): void {
  const allowed = new Set(allow.split(',').map((m) => m.trim()));
  const known = new Set(app.supportedMethods);
  const extra = EXTRA_METHODS.map(([m]) => m).filter((m) => known.has(m));
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', ...extra].filter((m) => !allowed.has(m));
  app.route({
    method: methods,
    url,
    schema: { hide: true },
    // Answer before the body is parsed: a DELETE with a broken JSON body is still a wrong method.
    onRequest: async (request, reply) => {
      reply.header('Allow', allow);
      return sendProblem(reply, problemFor('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`));
    },
    handler: () => undefined,
  });
}
