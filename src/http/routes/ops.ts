import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ServiceMetrics } from '../../ops/metrics.js';
import { problemFor, sendProblem } from '../problem.js';
import { rejectOtherMethods } from './methods.js';

export interface OpsDeps {
  /** Null until the first snapshot is published; throws or resolves null while the store is unreachable. */
  readiness(): Promise<{ reviews: number; snapshot: string } | null>;
  metrics?: ServiceMetrics;
  /** METRICS_TOKEN: /metrics answers only with `Authorization: Bearer <token>`; unset, it is a 404. */
  metricsToken?: string;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const NO_STORE = 'no-store';

/** Contract §8: liveness, readiness and Prometheus metrics, for orchestrators and monitoring. */
export function registerOpsRoutes(app: FastifyInstance, deps: OpsDeps): void {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', NO_STORE).type('application/json; charset=utf-8').send('{"status":"ok"}'),
  );
  rejectOtherMethods(app, '/healthz');

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const ready = await deps.readiness().catch(() => null);
    reply.header('Cache-Control', NO_STORE);
    if (!ready) {
      reply.header('Retry-After', '2');
      return sendProblem(
        reply,
        problemFor('unavailable', 'Not ready: the first snapshot is not published yet or the store does not answer.'),
      );
    }
    return reply.type('application/json; charset=utf-8').send(JSON.stringify({ status: 'ready', ...ready }));
  });
  rejectOtherMethods(app, '/readyz');

  const { metrics, metricsToken } = deps;
  if (!metrics || !metricsToken) return; // unset: /metrics is an unknown URL, the generic 404
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const auth = request.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m?.[1] || !sameSecret(m[1], metricsToken)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return sendProblem(reply, problemFor('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.'));
    }
    // prom-client writes NaN (an event-loop lag before its first sample) as "Nan"; the exposition
    // format spells it NaN.
    const text = (await metrics.registry.metrics()).replace(/ Nan$/gm, ' NaN');
    return reply.header('Cache-Control', NO_STORE).type(metrics.registry.contentType).send(text);
  });
  rejectOtherMethods(app, '/metrics');
}
