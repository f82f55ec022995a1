import type { FastifyInstance } from 'fastify';
import { problemFor, sendProblem } from '../problem.js';

const READ_ONLY_ALLOW = 'GET, HEAD, OPTIONS';

/** Every read-only path answers other methods with 405 and `Allow` (RFC 9110 §15.5.6, contract §4). */
export function rejectOtherMethods(app: FastifyInstance, url: string, allow = READ_ONLY_ALLOW): void {
  const allowed = new Set(allow.split(',').map((m) => m.trim()));
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !allowed.has(m));
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
