import { WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import type { SessionManager } from './sessions.js';

export type WebHandler = (request: Request, parsedBody: unknown) => Promise<Response>;

const ALLOW = 'GET, POST, DELETE';

/** A JSON-RPC error as an HTTP response (MCP 2025-11-25 §Transports answers errors this way). */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id }, { status, headers });
}

/** The id of a single JSON-RPC request, to echo on an error about it. */
export function requestIdOf(body: unknown): string | number | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function isInitialize(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((m) => m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize');
}

function withSessionHeader(response: Response, sessionId: string, body: ConstructorParameters<typeof Response>[0]): Response {
  const headers = new Headers(response.headers);
  headers.set('Mcp-Session-Id', sessionId);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The 2025-era streamable HTTP transport with sessions (MCP 2025-11-25 §Transports, "Session
 * Management"), session state in the store instead of in a transport object:
 * - `initialize` is served by a fresh instance; a successful answer creates the session and carries
 *   its id in `Mcp-Session-Id`;
 * - any later request must carry that header: missing is 400, unknown, expired or ended is 404 (the
 *   client then starts a new session); an `MCP-Protocol-Version` header other than the negotiated
 *   version is 400 (§Protocol Version Header);
 * - a valid request is served by a fresh instance over the SDK's stateless transport, answering with
 *   JSON (never SSE: no tool here streams);
 * - `DELETE` ends the session; `GET` (the server-to-client stream) is 405: this server never sends
 *   unsolicited messages, which §Listening for Messages allows.
 */
export function createLegacyHandler(deps: { factory: () => Server; sessions: SessionManager; onError?: (error: Error) => void }): {
  handle: WebHandler;
  close(): Promise<void>;
} {
  const inflight = new Set<Server>();

  async function serve(request: Request, parsedBody: unknown): Promise<Response> {
    const server = deps.factory();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    if (deps.onError) transport.onerror = deps.onError;
    await server.connect(transport);
    inflight.add(server);
    try {
      return await transport.handleRequest(request, { parsedBody });
    } finally {
      inflight.delete(server);
      await server.close();
    }
  }

  async function open(request: Request, parsedBody: unknown): Promise<Response> {
    const response = await serve(request, parsedBody);
    if (response.status !== 200) return response;
    const text = await response.text();
    const version = (JSON.parse(text) as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version !== 'string') return new Response(text, response);
    const session = await deps.sessions.create(version);
    return withSessionHeader(response, session.id, text);
  }

  async function handle(request: Request, parsedBody: unknown): Promise<Response> {
    if (request.method === 'POST' && isInitialize(parsedBody)) return open(request, parsedBody);
    if (!['POST', 'GET', 'DELETE'].includes(request.method))
      return jsonRpcError(405, -32000, 'Method not allowed.', null, { Allow: ALLOW });

    const id = requestIdOf(parsedBody);
    const sessionId = request.headers.get('mcp-session-id');
    if (!sessionId) return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required', id);
    const found = await deps.sessions.use(sessionId);
    if (!found.ok) return jsonRpcError(404, -32001, 'Session not found', id);
    const { session } = found;
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null && version !== session.protocolVersion) {
      return jsonRpcError(
        400,
        -32000,
        `Bad Request: MCP-Protocol-Version ${version} is not this session's version (${session.protocolVersion})`,
        id,
      );
    }

    if (request.method === 'DELETE') {
      await deps.sessions.end(session.id);
      return new Response(null, { status: 200 });
    }
    if (request.method === 'GET') {
      return jsonRpcError(405, -32000, 'Method not allowed: this server sends no messages outside responses.', null, { Allow: ALLOW });
    }
    const response = await serve(request, parsedBody);
    return withSessionHeader(response, session.id, response.body);
  }

  return {
    handle,
    async close() {
      await Promise.all([...inflight].map((s) => s.close().catch(() => {})));
      inflight.clear();
    },
  };
}
