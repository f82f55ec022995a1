import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { McpSessionStore } from '../domain/mcp-session-port.js';
import { createRateLimiter } from '../domain/rate-limit.js';
import type { ServiceUrls } from '../domain/urls.js';
import type { SnapshotSource } from '../snapshot/snapshot.js';
import type { McpEndpointHandler } from './endpoint.js';
import { mcpDeleteSchema, mcpPostSchema } from './openapi-schema.js';
import { createSessionManager, type SessionManager } from './sessions.js';

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
  /** Per-request bounds (src/config.ts). */
  limits: McpLimits;
  /** The bytes of tool-call replies kept per snapshot (SEARCH_CACHE_BYTES); none are kept without it. */
  keptReplyBytes?: number;
  /** Injected clock for session expiry and the rate limit (tests). */
  now?: () => number;
  sweepIntervalMs?: number;
}

export interface McpEndpoint {
  sessions: SessionManager;
}

/** The request as the SDK's fetch-shaped API takes it, without its body: the SDK is given it parsed. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(`http://${request.host || 'localhost'}${request.url}`, { method: request.method, headers });
}

/**
 * `/mcp` (contract §5), mounted in Fastify: the route hands the request to the endpoint (endpoint.ts),
 * then writes its fetch `Response` on the raw socket (`reply.hijack()`), with the headers the app's
 * hooks set (CORS, which exposes `Mcp-Session-Id` to browsers); the onResponse hooks (log line,
 * metrics) still run when it finishes. The SDK loads on the first /mcp request, not at start: a second of
 * start-up that the first /reviews.json never needs.
 */
export async function registerMcp(app: FastifyInstance, deps: McpDeps): Promise<McpEndpoint> {
  const onError = (error: Error) => app.log.debug({ err: error }, 'MCP request rejected');
  const sessions = createSessionManager({
    store: deps.sessionStore,
    ttlSeconds: deps.sessionTtlSeconds,
    maxSessions: deps.maxSessions,
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.sweepIntervalMs !== undefined ? { sweepIntervalMs: deps.sweepIntervalMs } : {}),
    onError: (err) => app.log.warn({ err }, 'could not sweep expired MCP sessions'),
  });
  const { maxBatch, maxAnswerBytes, sessionRateLimit } = deps.limits;
  const limiter = createRateLimiter({ perMinute: sessionRateLimit, clock: { now: deps.now ?? Date.now } });
  let loading: Promise<McpEndpointHandler> | undefined;
  const endpoint = () =>
    (loading ??= import('./endpoint.js').then(({ createMcpEndpoint }) =>
      createMcpEndpoint({
        ...deps,
        sessions,
        maxBatch,
        maxAnswerBytes,
        keptReplyBytes: deps.keptReplyBytes ?? 0,
        onError,
        admit: (ip) => limiter.take(ip),
      }),
    ));

  await app.register(async (scope) => {
    // The MCP layer reads JSON-RPC itself: a body that is not JSON is a JSON-RPC parse error, not a problem.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const answer = await (
        await endpoint()
      ).fetch({
        method: request.method,
        header: (name) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value.join(', ') : value;
        },
        headerNames: () => Object.keys(request.headers),
        body: request.body as string | undefined,
        ip: request.ip,
        web: () => webRequest(request),
      });
      reply.hijack();
      const raw = reply.raw;
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
      for (const [name, value] of answer.headers) raw.setHeader(name, value);
      // Answers are never cached: a session's next answer may differ, and errors are per request.
      raw.setHeader('cache-control', 'no-store');
      raw.writeHead(answer.status).end(answer.body ?? undefined);
    };
    // POST and DELETE are the transport's operations (documented); the others answer 405.
    scope.post('/mcp', { schema: mcpPostSchema }, handler);
    scope.delete('/mcp', { schema: mcpDeleteSchema }, handler);
    scope.route({ method: ['GET', 'PUT', 'PATCH'], url: '/mcp', schema: { hide: true }, handler });
  });

  app.addHook('onClose', async () => {
    sessions.close();
    if (loading) await (await loading).close();
  });
  return { sessions };
}
