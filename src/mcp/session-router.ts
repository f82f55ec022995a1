import { WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server';
import type { Answer, KeptReplies } from './kept-replies.js';
import type { SessionCreation, SessionManager } from './sessions.js';

/** An HTTP request to /mcp: its fields, and the fetch Request the SDK's handlers take, built when asked for. */
export interface McpRequest {
  method: string;
  header(name: string): string | undefined;
  headerNames(): string[];
  body: string | undefined;
  /** The client's address (behind TRUST_PROXY, the forwarded one), for per-address limits. */
  ip: string;
  web(): Request;
}

/** A fetch Response as an Answer: no tool streams, so every answer is read whole. */
export async function answerOf(response: Response): Promise<Answer> {
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => name !== 'content-length' && headers.push([name, value]));
  return { status: response.status, headers, body: response.body === null ? null : Buffer.from(await response.arrayBuffer()) };
}

/** A JSON-RPC error as an HTTP answer (MCP 2025-11-25 §Transports answers errors this way). */
export function rpcError(status: number, code: number, message: string, id: unknown = null, headers: [string, string][] = []): Answer {
  const echoed = typeof id === 'string' || typeof id === 'number' ? id : null;
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: echoed }));
  return { status, headers: [['content-type', 'application/json'], ...headers], body };
}

const idOf = (body: unknown) => (body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : null);
const isInitialize = (body: unknown) =>
  (Array.isArray(body) ? body : [body]).some(
    (m) => m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize',
  );

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

/**
 * The 2025-era streamable HTTP transport with sessions (MCP 2025-11-25 §Transports, "Session
 * Management"), the sessions kept in the store (sessions.ts) so that any replica serves them:
 * - `initialize` is served like any request; a successful answer creates the session and carries its
 *   id in `Mcp-Session-Id`;
 * - a later request must carry that header: missing is 400; unknown, expired or ended is 404 (the client
 *   then starts a new session); an `MCP-Protocol-Version` other than the negotiated one is 400;
 * - `DELETE` ends the session; `GET` (the server-to-client stream) is 405: this server never sends
 *   unsolicited messages, which §Listening for Messages allows.
 * A request that passes is served by the SDK's own transport in its stateless form on a fresh server
 * instance (the SDK's stateless idiom), with JSON answers (no tool streams); a tool call's reply may be
 * kept under the session's negotiated version (kept-replies.ts), only once the session is checked.
 */
export function createSessionRouter(deps: SessionRouterDeps) {
  async function serve(request: McpRequest, parsedBody: unknown, version?: string): Promise<Answer> {
    const web = request.web();
    // The SDK's transport reads the version from the header, which a client may leave out after initialize.
    if (version !== undefined) web.headers.set('mcp-protocol-version', version);
    const server = deps.factory();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    transport.onerror = deps.onError;
    await server.connect(transport);
    try {
      return await answerOf(await transport.handleRequest(web, { parsedBody }));
    } finally {
      void server.close();
    }
  }

  async function open(request: McpRequest, parsedBody: unknown): Promise<Answer> {
    const admitted = deps.admit(request.ip);
    if (!admitted.ok) {
      const message = `Too many new sessions from this address: try again in ${admitted.retryAfterSeconds} s, or keep using the session you have.`;
      return rpcError(429, -32000, message, idOf(parsedBody), [['retry-after', String(admitted.retryAfterSeconds)]]);
    }
    const answer = await serve(request, parsedBody);
    if (answer.status !== 200 || answer.body === null) return answer;
    const version = (JSON.parse(answer.body.toString('utf8')) as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version !== 'string') return answer;
    let created: SessionCreation;
    try {
      created = await deps.sessions.create(version);
    } catch (error) {
      // The store could not record the session (disk full, database unreachable): a passing condition,
      // not a bug, so the client is told to retry (RFC 9110 §15.6.4) instead of getting a 500.
      deps.onError(error instanceof Error ? error : new Error(String(error)));
      created = { ok: false, reason: 'could not record the session; try again shortly.', retryAfterSeconds: 5 };
    }
    if (!created.ok) {
      const retry: [string, string] = ['retry-after', String(created.retryAfterSeconds)];
      return rpcError(503, -32000, `Service unavailable: ${created.reason}`, idOf(parsedBody), [retry]);
    }
    return { ...answer, headers: [...answer.headers, ['mcp-session-id', created.session.id]] };
  }

  return async function route(request: McpRequest, parsedBody: unknown): Promise<Answer> {
    const { method, header } = request;
    if (method === 'POST' && Array.isArray(parsedBody) && parsedBody.length > deps.maxBatch) {
      const message = `Invalid Request: a batch of ${parsedBody.length} messages exceeds this server's limit of ${deps.maxBatch}; send fewer per request.`;
      return rpcError(400, -32600, message);
    }
    if (method === 'POST' && isInitialize(parsedBody)) return open(request, parsedBody);
    const id = idOf(parsedBody);
    const sessionId = header('mcp-session-id');
    if (!sessionId) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required', id);
    const found = await deps.sessions.use(sessionId);
    if (!found.ok) return rpcError(404, -32001, 'Session not found', id);
    const { session } = found;
    const version = header('mcp-protocol-version');
    if (version !== undefined && version !== session.protocolVersion) {
      return rpcError(
        400,
        -32000,
        `Bad Request: MCP-Protocol-Version ${version} is not this session's version (${session.protocolVersion})`,
        id,
      );
    }
    if (method === 'DELETE') {
      await deps.sessions.end(session.id);
      return { status: 200, headers: [], body: null };
    }
    if (method !== 'POST') {
      return rpcError(405, -32000, 'Method not allowed: this server sends no messages outside responses.', null, [
        ['allow', 'GET, POST, DELETE'],
      ]);
    }
    const answer = await deps.keep(session.protocolVersion, parsedBody, () => serve(request, parsedBody, session.protocolVersion));
    return { ...answer, headers: [...answer.headers, ['mcp-session-id', session.id]] };
  };
}
