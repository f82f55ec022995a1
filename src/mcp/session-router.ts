import { WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server';
import type { FastifyRequest } from 'fastify';
import { answerOf, headerOf, rpcError, webRequest, type Answer } from './answer.js';
import type { KeptReplies } from './kept-replies.js';
import type { SessionManager } from '../domain/mcp-sessions.js';

export interface SessionRouterDeps {
  factory: () => McpServer;
  sessions: SessionManager;
  /** MCP_MAX_BATCH */
  maxBatch: number;
  /** May this client address open another session now (MCP_SESSION_RATE_LIMIT)? Seconds to wait when not. */
  admit(ip: string): { ok: true } | { ok: false; retryAfterSeconds: number };
  keep: KeptReplies;
  onError(error: Error): void;
}

const idOf = (body: unknown) => (body !== null && typeof body === 'object' ? (body as { id?: unknown }).id : null);
const isInitialize = (m: unknown) => m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize';

/**
 * The 2025-era streamable HTTP transport with sessions (MCP 2025-11-25 §Transports, "Session Management"),
 * the sessions in the store (src/domain/mcp-sessions.ts), so that any replica serves them. `initialize` answered, the
 * session is made and its id sent in `Mcp-Session-Id`; a later request without it is 400, with an unknown,
 * expired or ended one 404 (the client starts a new session), with another `MCP-Protocol-Version` than
 * the negotiated one 400. `DELETE` ends it; `GET` (the server-to-client stream) is 405, as §Listening for
 * Messages allows a server that never sends unsolicited messages. What passes is served by the SDK's own
 * transport, stateless, on a fresh instance (the SDK's stateless idiom), answering JSON: no tool streams.
 * A tool call's reply may be kept under the negotiated version (kept-replies.ts), once the session is checked.
 */
export function createSessionRouter(deps: SessionRouterDeps) {
  async function serve(request: FastifyRequest, parsedBody: unknown, version?: string): Promise<Answer> {
    const web = webRequest(request);
    // The transport reads the version from this header, which a client may leave out after initialize.
    if (version !== undefined) web.headers.set('mcp-protocol-version', version);
    const server = deps.factory();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    transport.onerror = deps.onError;
    await server.connect(transport);
    try {
      return await answerOf(await transport.handleRequest(web, { parsedBody }));
    } finally {
      server.close().catch(deps.onError);
    }
  }

  async function open(request: FastifyRequest, parsedBody: unknown): Promise<Answer> {
    const admitted = deps.admit(request.ip);
    if (!admitted.ok) {
      const message = `Too many new sessions from this address: try again in ${admitted.retryAfterSeconds} s, or keep using the session you have.`;
      return rpcError(429, -32000, message, idOf(parsedBody), [['retry-after', String(admitted.retryAfterSeconds)]]);
    }
    const answer = await serve(request, parsedBody);
    const version =
      answer.status === 200 &&
      answer.body !== null &&
      (JSON.parse(answer.body.toString('utf8')) as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version !== 'string') return answer;
    const created = await deps.sessions.create(version);
    if (!created.ok) {
      const message = `Service unavailable: ${created.reason}`;
      return rpcError(503, -32000, message, idOf(parsedBody), [['retry-after', String(created.retryAfterSeconds)]]);
    }
    return { ...answer, headers: [...answer.headers, ['mcp-session-id', created.session.id]] };
  }

  return async function route(request: FastifyRequest, parsedBody: unknown): Promise<Answer> {
    const { method } = request;
    if (Array.isArray(parsedBody) && parsedBody.length > deps.maxBatch) {
      const message = `Invalid Request: a batch of ${parsedBody.length} messages exceeds this server's limit of ${deps.maxBatch}; send fewer per request.`;
      return rpcError(400, -32600, message);
    }
    const messages: unknown[] = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
    if (method === 'POST' && messages.some(isInitialize)) return open(request, parsedBody);
    const id = idOf(parsedBody);
    const sessionId = headerOf(request, 'mcp-session-id');
    const found = sessionId ? await deps.sessions.use(sessionId) : undefined;
    if (!found) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required', id);
    if (!found.ok) return rpcError(404, -32001, 'Session not found', id);
    const { id: session, protocolVersion } = found.session;
    const version = headerOf(request, 'mcp-protocol-version');
    if (version !== undefined && version !== protocolVersion) {
      return rpcError(400, -32000, `Bad Request: MCP-Protocol-Version ${version} is not this session's version (${protocolVersion})`, id);
    }
    if (method === 'DELETE') {
      await deps.sessions.end(session);
      return { status: 200, headers: [], body: null };
    }
    if (method !== 'POST') {
      const message = 'Method not allowed: this server sends no messages outside responses.';
      return rpcError(405, -32000, message, null, [['allow', 'GET, POST, DELETE']]);
    }
    const answer = await deps.keep(protocolVersion, parsedBody, () => serve(request, parsedBody, protocolVersion));
    return { ...answer, headers: [...answer.headers, ['mcp-session-id', session]] };
  };
}
