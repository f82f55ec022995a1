import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  WebStandardStreamableHTTPServerTransport,
  type Server,
} from '@modelcontextprotocol/server';
import { BARE_JSON_MEDIA_TYPE } from '../domain/media-types.js';
import { DispatchTransport } from './dispatch-transport.js';
import type { SessionManager } from './sessions.js';

/** What the legacy handler needs of an HTTP request; `web()` builds a fetch Request only when needed. */
export interface LegacyHttpRequest {
  method: string;
  header(name: string): string | undefined;
  web(): Request;
}

/** An HTTP answer; `sessionId` goes out as `Mcp-Session-Id`. */
export interface LegacyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
  sessionId?: string;
}

const ALLOW = 'GET, POST, DELETE';

/** A JSON-RPC error as an HTTP answer (MCP 2025-11-25 §Transports answers errors this way). */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
  headers: Record<string, string> = {},
): LegacyAnswer {
  return {
    status,
    headers: { 'content-type': BARE_JSON_MEDIA_TYPE, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }),
  };
}

async function fromResponse(response: Response): Promise<LegacyAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { status: response.status, headers, body: response.body === null ? null : await response.text() };
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

/**
 * The 2025-era streamable HTTP transport with sessions (MCP 2025-11-25 §Transports, "Session
 * Management"), session state in the store instead of in a transport object:
 * - `initialize` is served by a fresh instance; a successful answer creates the session and carries
 *   its id in `Mcp-Session-Id`;
 * - any later request must carry that header: missing is 400, unknown, expired or ended is 404 (the
 *   client then starts a new session); an `MCP-Protocol-Version` header other than the negotiated
 *   version is 400 (§Protocol Version Header);
 * - a valid request is served by one long-lived server instance through an in-process transport
 *   (dispatch-transport.ts), answered with JSON (never SSE: no tool here streams);
 * - `DELETE` ends the session; `GET` (the server-to-client stream) is 405: this server never sends
 *   unsolicited messages, which §Listening for Messages allows.
 */
export function createLegacyHandler(deps: { factory: () => Server; sessions: SessionManager; onError?: (error: Error) => void }): {
  handle(request: LegacyHttpRequest, parsedBody: unknown): Promise<LegacyAnswer>;
  close(): Promise<void>;
} {
  const dispatch = new DispatchTransport();
  const shared = deps.factory();
  if (deps.onError) dispatch.onerror = deps.onError;
  const connected = shared.connect(dispatch);

  /** `initialize` through the SDK's own streamable HTTP transport, on a fresh instance. */
  async function open(request: LegacyHttpRequest, parsedBody: unknown): Promise<LegacyAnswer> {
    const server = deps.factory();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    if (deps.onError) transport.onerror = deps.onError;
    await server.connect(transport);
    const answer = await fromResponse(await transport.handleRequest(request.web(), { parsedBody }));
    if (answer.status !== 200 || answer.body === null) return answer;
    const version = (JSON.parse(answer.body) as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version !== 'string') return answer;
    const session = await deps.sessions.create(version);
    return { ...answer, sessionId: session.id };
  }

  /** JSON-RPC messages of a live session (§Sending Messages to the Server). */
  async function serve(request: LegacyHttpRequest, parsedBody: unknown, sessionId: string): Promise<LegacyAnswer> {
    const accept = request.header('accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return jsonRpcError(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    const batch = Array.isArray(parsedBody);
    const messages: unknown[] = batch ? parsedBody : [parsedBody];
    if (
      messages.length === 0 ||
      messages.length > 100 ||
      !messages.every((m) => isJSONRPCRequest(m) || isJSONRPCNotification(m) || isJSONRPCResponse(m))
    ) {
      return jsonRpcError(400, -32700, 'Parse error: Invalid JSON-RPC message');
    }
    await connected;
    const replies = await Promise.all(
      messages.map((m) => {
        if (isJSONRPCRequest(m)) return dispatch.request(m);
        if (isJSONRPCNotification(m)) dispatch.notify(m);
        return undefined;
      }),
    );
    const answered = replies.filter((r) => r !== undefined);
    if (answered.length === 0) return { status: 202, headers: {}, body: null, sessionId };
    const body = JSON.stringify(batch ? answered : answered[0]);
    return { status: 200, headers: { 'content-type': BARE_JSON_MEDIA_TYPE }, body, sessionId };
  }

  return {
    async handle(request, parsedBody) {
      const method = request.method;
      if (method === 'POST' && isInitialize(parsedBody)) return open(request, parsedBody);
      if (method !== 'POST' && method !== 'GET' && method !== 'DELETE')
        return jsonRpcError(405, -32000, 'Method not allowed.', null, { Allow: ALLOW });
      const id = requestIdOf(parsedBody);
      const sessionId = request.header('mcp-session-id');
      if (!sessionId) return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required', id);
      const found = await deps.sessions.use(sessionId);
      if (!found.ok) return jsonRpcError(404, -32001, 'Session not found', id);
      const { session } = found;
      const version = request.header('mcp-protocol-version');
      if (version !== undefined && version !== session.protocolVersion) {
        const message = `Bad Request: MCP-Protocol-Version ${version} is not this session's version (${session.protocolVersion})`;
        return jsonRpcError(400, -32000, message, id);
      }
      if (method === 'DELETE') {
        await deps.sessions.end(session.id);
        return { status: 200, headers: {}, body: null };
      }
      if (method === 'GET') {
        return jsonRpcError(405, -32000, 'Method not allowed: this server sends no messages outside responses.', null, { Allow: ALLOW });
      }
      return serve(request, parsedBody, session.id);
    },
    async close() {
      await dispatch.close();
      await shared.close().catch(() => {});
    },
  };
}
