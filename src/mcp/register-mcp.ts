import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type * as SdkModule from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceUrls } from '../domain/urls.js';
import type { SnapshotSource } from '../snapshot/snapshot.js';
import type * as LegacyModuleNs from './legacy-handler.js';
import type { LegacyAnswer, LegacyHttpRequest } from './legacy-handler.js';
import type * as ModernToolCallsModule from './modern-tool-calls.js';
import { mcpDeleteSchema, mcpPostSchema } from './openapi-schema.js';
import type { McpSessionStore } from '../domain/mcp-session-port.js';
import { createSessionManager, type SessionManager } from './sessions.js';
import { createRateLimiter } from '../domain/rate-limit.js';

export interface McpDeps {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
  sessionStore: McpSessionStore;
  /** MCP_SESSION_TTL_SECONDS */
  sessionTtlSeconds: number;
  /** MCP_MAX_SESSIONS */
  maxSessions: number;
  /** Per-request bounds (issue 11 H1, M4); defaults: MCP_LIMIT_DEFAULTS. */
  limits?: Partial<McpLimits>;
  /** Injected clock for session expiry (tests). */
  now?: () => number;
  sweepIntervalMs?: number;
}

export interface McpLimits {
  /** MCP_MAX_BATCH */
  maxBatch: number;
  /** MCP_MAX_ANSWER_BYTES */
  maxAnswerBytes: number;
  /** MCP_SESSION_RATE_LIMIT: new sessions per client address per minute; 0 is no limit. */
  sessionRateLimit: number;
}

/** The configuration defaults (config.ts), for callers that build the endpoint without a Config. */
export const MCP_LIMIT_DEFAULTS: McpLimits = { maxBatch: 20, maxAnswerBytes: 4 * 1024 * 1024, sessionRateLimit: 30 };

export interface McpEndpoint {
  sessions: SessionManager;
}

function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(`http://${request.host || 'localhost'}${request.url}`, { method: request.method, headers });
}

/**
 * The common 2025-era request, recognised without the SDK's classifier (a tenth of a millisecond):
 * one JSON-RPC message with no `_meta` at all, so no 2026-07-28 envelope claim, and no modern
 * `MCP-Protocol-Version` header. The classifier routes exactly these to its legacy leg too; anything
 * else is left to it.
 */
function plainLegacy(request: FastifyRequest, body: unknown): boolean {
  const version = request.headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || version >= '2026')) return false;
  if (request.method !== 'POST') return false;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const params = (body as { params?: unknown }).params;
  return params === undefined || (params !== null && typeof params === 'object' && !('_meta' in params));
}

/** A 2026-07-28 request: its `_meta` names a protocol version (the envelope claim); never legacy. */
function claimsModern(body: unknown): boolean {
  const params =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { params?: { _meta?: unknown } }).params : undefined;
  const meta = params?._meta;
  return meta !== null && typeof meta === 'object' && 'io.modelcontextprotocol/protocolVersion' in meta;
}

function acceptsJsonAndSse(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  const any = types.includes('*/*');
  return (
    (any || types.includes('application/json') || types.includes('application/*')) &&
    (any || types.includes('text/event-stream') || types.includes('text/*'))
  );
}

// Answers are never cached: a session's next answer may differ, and errors are per request.
const NO_STORE = 'no-store';

function sendAnswer(reply: FastifyReply, answer: LegacyAnswer): FastifyReply {
  reply.code(answer.status).headers(answer.headers).header('Cache-Control', NO_STORE);
  if (answer.sessionId !== undefined) reply.header('Mcp-Session-Id', answer.sessionId);
  return answer.body === null ? reply.send() : reply.send(answer.body);
}

async function sendResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => void reply.header(name, value));
  reply.header('Cache-Control', NO_STORE);
  if (response.body === null) return reply.send();
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return reply.send(Readable.fromWeb(response.body as NodeReadableStream));
  }
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

/**
 * `POST /mcp` (and GET/DELETE) for both protocol eras on one endpoint (contract §5): requests that
 * carry the 2026-07-28 per-request `_meta` envelope go to the SDK's stateless modern handler
 * (`server/discover`, no session); everything else is 2025-era traffic, served with sessions kept in
 * the store (see legacy-handler.ts). The common cases are recognised first without the SDK (`plainLegacy`,
 * `claimsModern`: the same rules as its classifier, at a fraction of the cost); anything else is left to
 * the SDK's own classifier, `isLegacyRequest`.
 *
 * Responses go through Fastify's reply (not the raw socket), so the global CORS headers, including
 * `Access-Control-Expose-Headers: Mcp-Session-Id`, reach every MCP answer.
 */
export async function registerMcp(app: FastifyInstance, deps: McpDeps): Promise<McpEndpoint> {
  const onError = (error: Error) => app.log.debug({ err: error }, 'MCP request rejected');
  const limits = { ...MCP_LIMIT_DEFAULTS, ...deps.limits };
  const sessions = createSessionManager({
    store: deps.sessionStore,
    ttlSeconds: deps.sessionTtlSeconds,
    maxSessions: deps.maxSessions,
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.sweepIntervalMs !== undefined ? { sweepIntervalMs: deps.sweepIntervalMs } : {}),
    onError: (err) => app.log.warn({ err }, 'could not sweep expired MCP sessions'),
  });
  const now = deps.now ?? Date.now;
  const sessionLimiter = createRateLimiter({ perMinute: limits.sessionRateLimit, clock: { now } });
  // The MCP SDK and the tools load on the first /mcp request, not at start (issue 14): a second of
  // start-up that the first /reviews.json never needed. That request waits for them once.
  let loading: Promise<McpHandlers> | undefined;
  const handlers = () =>
    (loading ??= loadHandlers({
      snapshots: deps.snapshots,
      urls: deps.urls,
      limits,
      sessions,
      onError,
      admit: (request) => sessionLimiter.take(request.ip ?? 'unknown'),
    }));

  await app.register(async (scope) => {
    // The SDK reads JSON-RPC itself: a body that is not JSON is a JSON-RPC parse error, not a problem.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const { sdk, legacy, modern, modernToolCalls, jsonRpcError, requestIdOf } = await handlers();
      const { isJsonContentType, isLegacyRequest } = sdk;
      let parsedBody: unknown;
      if (request.method === 'POST') {
        if (!isJsonContentType(request.headers['content-type'] ?? null)) {
          return sendAnswer(reply, jsonRpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json'));
        }
        try {
          parsedBody = JSON.parse((request.body as Buffer | undefined)?.toString('utf8') ?? '');
        } catch {
          return sendAnswer(reply, jsonRpcError(400, -32700, 'Parse error: Invalid JSON'));
        }
      }
      let web: Request | undefined;
      const http: LegacyHttpRequest = {
        method: request.method,
        ip: request.ip,
        header: (name) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value.join(', ') : value;
        },
        web: () => (web ??= webRequest(request)),
      };
      const era = plainLegacy(request, parsedBody) ? 'legacy' : claimsModern(parsedBody) ? 'modern' : undefined;
      if (era === 'legacy' || (era === undefined && (await isLegacyRequest(http.web(), parsedBody)))) {
        return sendAnswer(reply, await legacy.handle(http, parsedBody));
      }
      // Streamable HTTP (MCP 2025-11-25 and 2026-07-28 §Transports): a POST must accept both JSON and SSE;
      // the SDK's modern handler does not check, the legacy one does, and docs/mcp.md promises 406 for both.
      if (request.method === 'POST' && !acceptsJsonAndSse(http.header('accept'))) {
        return sendAnswer(
          reply,
          jsonRpcError(
            406,
            -32000,
            'Not Acceptable: Client must accept both application/json and text/event-stream',
            requestIdOf(parsedBody),
          ),
        );
      }
      const answer = era === 'modern' ? await modernToolCalls.call(http.header, parsedBody) : undefined;
      if (answer) return sendAnswer(reply, answer);
      return sendResponse(reply, await modern.fetch(http.web(), { parsedBody }));
    };
    // POST and DELETE are the transport's operations (documented); the others answer 405 the SDK's way.
    scope.post('/mcp', { schema: mcpPostSchema }, handler);
    scope.delete('/mcp', { schema: mcpDeleteSchema }, handler);
    scope.route({ method: ['GET', 'PUT', 'PATCH'], url: '/mcp', schema: { hide: true }, handler });
  });

  app.addHook('onClose', async () => {
    sessions.close();
    if (!loading) return;
    const { legacy, modern, modernToolCalls } = await loading;
    await Promise.all([legacy.close(), modern.close(), modernToolCalls.close()]);
  });
  return { sessions };
}

type Sdk = typeof SdkModule;
type LegacyModule = typeof LegacyModuleNs;

interface McpHandlers {
  sdk: Sdk;
  legacy: ReturnType<LegacyModule['createLegacyHandler']>;
  modern: ReturnType<Sdk['createMcpHandler']>;
  modernToolCalls: ReturnType<(typeof ModernToolCallsModule)['createModernToolCalls']>;
  jsonRpcError: LegacyModule['jsonRpcError'];
  requestIdOf: LegacyModule['requestIdOf'];
}

/** Both protocol eras' handlers, built as registerMcp built them before they loaded lazily. */
async function loadHandlers(deps: {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
  limits: McpLimits;
  sessions: SessionManager;
  onError: (error: Error) => void;
  admit: NonNullable<Parameters<LegacyModule['createLegacyHandler']>[0]['admit']>;
}): Promise<McpHandlers> {
  const [sdk, legacyModule, { createModernToolCalls }, { createServerFactory, TOOL_NAMES }, { createKeptReplies }] = await Promise.all([
    import('@modelcontextprotocol/server'),
    import('./legacy-handler.js'),
    import('./modern-tool-calls.js'),
    import('./server-factory.js'),
    import('./kept-replies.js'),
  ]);
  const { limits, onError } = deps;
  const factory = createServerFactory({ snapshots: deps.snapshots, urls: deps.urls, maxAnswerBytes: limits.maxAnswerBytes });
  // Both eras' tool-call replies within one budget (SEARCH_CACHE_BYTES), each era and version apart.
  const replies = createKeptReplies({ snapshots: deps.snapshots });
  const legacy = legacyModule.createLegacyHandler({
    factory: () => factory(),
    sessions: deps.sessions,
    limits,
    onError,
    admit: deps.admit,
    replies,
  });
  const modern = sdk.createMcpHandler(() => factory(), { legacy: 'reject', onerror: onError });
  const modernToolCalls = createModernToolCalls({ factory, toolNames: TOOL_NAMES, onError, replies });
  return { sdk, legacy, modern, modernToolCalls, jsonRpcError: legacyModule.jsonRpcError, requestIdOf: legacyModule.requestIdOf };
}
