import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { McpSessionStore } from '../domain/mcp-session-port.js';
import { createRateLimiter } from '../domain/rate-limit.js';
import type { ServiceUrls } from '../domain/urls.js';
import type { SnapshotSource } from '../snapshot/snapshot.js';
import type { McpEndpointHandler } from './endpoint.js';
import { mcpDeleteSchema, mcpPostSchema } from './openapi-schema.js';
import { createSessionManager, type SessionManager } from '../domain/mcp-sessions.js';

/** The bounds of one MCP request (src/config.ts). */
export interface McpLimits {
  /** MCP_MAX_BATCH */
  maxBatch: number;
  /** MCP_MAX_ANSWER_BYTES */
  maxAnswerBytes: number;
  /** MCP_SESSION_RATE_LIMIT: new sessions per client address per minute; 0 is no limit. */
  sessionRateLimit: number;
}

export interface McpDeps {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
  sessionStore: McpSessionStore;
  /** MCP_SESSION_TTL_SECONDS */
  sessionTtlSeconds: number;
  /** MCP_MAX_SESSIONS */
  maxSessions: number;
  limits: McpLimits;
  /** Injected clock for session expiry and the rate limit (tests). */
  now?: () => number;
  sweepIntervalMs?: number;
}

/**
 * `/mcp` (contract §5), mounted in Fastify: the route hands the request to the endpoint (endpoint.ts) and
 * writes its answer on the raw response (`reply.hijack()`), with the headers the app's hooks set (CORS,
 * which exposes `Mcp-Session-Id` to browsers); the onResponse hooks (log line, metrics) run when it ends.
 * The SDK loads with the first /mcp request, not at start: a second of start-up /reviews.json never needs.
 */
export async function registerMcp(app: FastifyInstance, deps: McpDeps): Promise<{ sessions: SessionManager }> {
  const onError = (error: Error) => app.log.debug({ err: error }, 'MCP request rejected');
  const { sessionStore: store, sessionTtlSeconds: ttlSeconds, maxSessions, now, sweepIntervalMs, limits } = deps;
  const sessions = createSessionManager({
    store,
    ttlSeconds,
    maxSessions,
    now,
    onError: (err) => app.log.warn({ err }, 'MCP session store'),
  });
  // Expired sessions are swept now and then, so abandoned ones never accumulate (0: tests sweep by hand).
  const sweep = () => void sessions.sweep().catch((err: unknown) => app.log.warn({ err }, 'could not sweep expired MCP sessions'));
  const timer = sweepIntervalMs === 0 ? undefined : setInterval(sweep, sweepIntervalMs ?? sessions.sweepIntervalMs).unref();
  const limiter = createRateLimiter({ perMinute: limits.sessionRateLimit, clock: { now: now ?? Date.now } });
  const admit = (ip: string) => limiter.take(ip);
  let loading: Promise<McpEndpointHandler> | undefined;
  const endpoint = () =>
    (loading ??= import('./endpoint.js').then((m) => m.createMcpEndpoint({ ...deps, ...limits, sessions, admit, onError })));

  await app.register(async (scope) => {
    // The MCP layer reads JSON-RPC itself: a body that is not JSON is a JSON-RPC parse error, not a problem.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const answer = await (await endpoint()).serve(request);
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      for (const [name, value] of answer.headers) reply.raw.setHeader(name, value);
      // Answers are never cached: a session's next answer may differ, and errors are per request.
      reply.raw.setHeader('cache-control', 'no-store');
      reply.raw.writeHead(answer.status).end(answer.body ?? undefined);
    };
    // POST and DELETE are the transport's operations (documented); the others answer 405.
    scope.post('/mcp', { schema: mcpPostSchema }, handler);
    scope.delete('/mcp', { schema: mcpDeleteSchema }, handler);
    scope.route({ method: ['GET', 'PUT', 'PATCH'], url: '/mcp', schema: { hide: true }, handler });
  });

  app.addHook('onClose', async () => {
    clearInterval(timer);
    if (loading) await (await loading).close();
  });
  return { sessions };
}
