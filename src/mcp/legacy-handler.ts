import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  WebStandardStreamableHTTPServerTransport,
  type Server,
} from '@modelcontextprotocol/server';
import { BARE_JSON_MEDIA_TYPE, JSON_MEDIA_TYPE } from '../domain/media-types.js';
import { DispatchTransport } from './dispatch-transport.js';
import type { KeptReplies } from './kept-replies.js';
import { batchBytes, replyBytes } from './reply-bytes.js';
import { ANSWER_TOO_LARGE } from './server-factory.js';
import type { SessionManager } from './sessions.js';
import type { McpSessionRecord } from '../domain/mcp-session-port.js';

/** What the legacy handler needs of an HTTP request; `web()` builds a fetch Request only when needed. */
export interface LegacyHttpRequest {
  method: string;
  /** The client's address (behind TRUST_PROXY, the forwarded one), for per-address limits. */
  ip?: string;
  header(name: string): string | undefined;
  web(): Request;
}

/** An HTTP answer; `sessionId` goes out as `Mcp-Session-Id`. A JSON body is UTF-8 whether string or bytes. */
export interface LegacyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | null;
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

async function fromResponse(response: Response): Promise<LegacyAnswer & { body: string | null }> {
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

/** A well-formed JSON-RPC 2.0 message (JSON-RPC 2.0 §4: `"jsonrpc"` MUST be exactly "2.0"). */
function isJsonRpcMessage(m: unknown): boolean {
  return isJSONRPCRequest(m) || isJSONRPCNotification(m) || isJSONRPCResponse(m);
}

/** The first `initialize` whose `protocolVersion` is not a string (MCP 2025-11-25 §Lifecycle: it is one). */
function badInitialize(body: unknown): { id: string | number | null; message: string } | undefined {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  for (const m of messages) {
    if (m === null || typeof m !== 'object' || (m as { method?: unknown }).method !== 'initialize') continue;
    const params = (m as { params?: unknown }).params;
    const version = params !== null && typeof params === 'object' ? (params as { protocolVersion?: unknown }).protocolVersion : undefined;
    if (typeof version !== 'string') {
      const message =
        params === null || typeof params !== 'object'
          ? 'Invalid params: initialize needs params { protocolVersion, capabilities, clientInfo }'
          : `Invalid params: protocolVersion must be a string such as "2025-11-25" (got ${JSON.stringify(version) ?? 'nothing'})`;
      return { id: requestIdOf(m), message };
    }
  }
  return undefined;
}

export interface LegacyLimits {
  /** MCP_MAX_BATCH */
  maxBatch: number;
  /** MCP_MAX_ANSWER_BYTES: the replies of one HTTP request together. */
  maxAnswerBytes: number;
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
export function createLegacyHandler(deps: {
  factory: () => Server;
  sessions: SessionManager;
  limits: LegacyLimits;
  onError?: (error: Error) => void;
  /** May this client open another session now (MCP_SESSION_RATE_LIMIT)? Seconds to wait when not. */
  admit?: (request: LegacyHttpRequest) => { ok: true } | { ok: false; retryAfterSeconds: number };
  /**
   * Tool-call replies kept per snapshot (kept-replies.ts), under the session's negotiated version: every
   * session shares the one server instance, so the SDK's reply to a message depends on nothing of the
   * session, but a kept reply is only ever looked up once the session has been checked.
   */
  replies?: KeptReplies;
}): {
  handle(request: LegacyHttpRequest, parsedBody: unknown): Promise<LegacyAnswer>;
  close(): Promise<void>;
} {
  const dispatch = new DispatchTransport();
  const shared = deps.factory();
  if (deps.onError) dispatch.onerror = deps.onError;
  const connected = shared.connect(dispatch);

  /** `initialize` through the SDK's own streamable HTTP transport, on a fresh instance. */
  async function open(request: LegacyHttpRequest, parsedBody: unknown): Promise<LegacyAnswer> {
    const bad = badInitialize(parsedBody);
    if (bad) return jsonRpcError(400, -32602, bad.message, bad.id);
    const admitted = deps.admit?.(request) ?? { ok: true };
    if (!admitted.ok) {
      const message = `Too many new sessions from this address: try again in ${admitted.retryAfterSeconds} s, or keep using the session you have.`;
      return jsonRpcError(429, -32000, message, requestIdOf(parsedBody), { 'Retry-After': String(admitted.retryAfterSeconds) });
    }
    const server = deps.factory();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    if (deps.onError) transport.onerror = deps.onError;
    await server.connect(transport);
    const answer = await fromResponse(await transport.handleRequest(request.web(), { parsedBody }));
    if (answer.status !== 200 || answer.body === null) return answer;
    const version = (JSON.parse(answer.body) as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version !== 'string') return answer;
    let created;
    try {
      created = await deps.sessions.create(version);
    } catch (error) {
      // The store could not record the session (disk full, database unreachable): a passing condition,
      // not a bug, so the client is told to retry (RFC 9110 §15.6.4) instead of getting a 500.
      deps.onError?.(error instanceof Error ? error : new Error(String(error)));
      return jsonRpcError(503, -32000, 'Service unavailable: could not record the session; try again shortly.', requestIdOf(parsedBody), {
        'Retry-After': '5',
      });
    }
    if (!created.ok) {
      return jsonRpcError(503, -32000, `Service unavailable: ${created.reason}`, requestIdOf(parsedBody), {
        'Retry-After': String(created.retryAfterSeconds),
      });
    }
    return { ...answer, sessionId: created.session.id };
  }

  /** JSON-RPC messages of a live session (§Sending Messages to the Server). */
  async function serve(request: LegacyHttpRequest, parsedBody: unknown, session: McpSessionRecord): Promise<LegacyAnswer> {
    const accept = request.header('accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return jsonRpcError(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    const batch = Array.isArray(parsedBody);
    const messages: unknown[] = batch ? parsedBody : [parsedBody];
    if (messages.length > deps.limits.maxBatch) {
      const message = `Invalid Request: a batch of ${messages.length} messages exceeds this server's limit of ${deps.limits.maxBatch}; send fewer per request.`;
      return jsonRpcError(400, -32600, message);
    }
    // Valid JSON that is not a JSON-RPC 2.0 message is an Invalid Request (JSON-RPC 2.0 §5.1), not a parse error.
    if (messages.length === 0 || !messages.every(isJsonRpcMessage)) {
      return jsonRpcError(
        400,
        -32600,
        'Invalid Request: not a JSON-RPC 2.0 message (or batch of them)',
        batch ? null : requestIdOf(parsedBody),
      );
    }
    await connected;
    // One message at a time, within a byte budget for the whole answer (issue 11 H1): once the replies
    // so far reach MCP_MAX_ANSWER_BYTES, the remaining requests are answered with an error, not run.
    const parts: (string | Buffer)[] = [];
    let bytes = 0;
    for (const m of messages) {
      // A request first: nearly every message is one, and a schema check that fails (a request tried
      // as a notification) cost more than one that passes (issue 15, MCP row).
      if (!isJSONRPCRequest(m)) {
        if (isJSONRPCNotification(m)) dispatch.notify(m);
        continue;
      }
      const tooLarge = bytes >= deps.limits.maxAnswerBytes;
      const answer = async () => replyBytes(await dispatch.request(m));
      const text = tooLarge
        ? replyBytes({
            jsonrpc: '2.0',
            id: m.id,
            error: {
              code: ANSWER_TOO_LARGE,
              message: `This batch's answer reached the limit of ${deps.limits.maxAnswerBytes} bytes; send this request again on its own.`,
            },
          })
        : deps.replies
          ? (await deps.replies.reply(session.protocolVersion, m, answer))!
          : await answer();
      bytes += text.length;
      parts.push(text);
    }
    const sessionId = session.id;
    if (parts.length === 0) return { status: 202, headers: {}, body: null, sessionId };
    // The type Fastify gave these answers when they were strings, now that they may be bytes.
    return { status: 200, headers: { 'content-type': JSON_MEDIA_TYPE }, body: batch ? batchBytes(parts) : parts[0]!, sessionId };
  }

  return {
    async handle(request, parsedBody) {
      const method = request.method;
      if (method === 'POST') {
        const messages: unknown[] = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
        if (messages.length > 0 && messages.some((m) => m !== null && typeof m === 'object' && !isJsonRpcMessage(m) && !badInitialize(m))) {
          const message = 'Invalid Request: not a JSON-RPC 2.0 message (or batch of them); "jsonrpc" must be "2.0"';
          return jsonRpcError(400, -32600, message, Array.isArray(parsedBody) ? null : requestIdOf(parsedBody));
        }
      }
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
      return serve(request, parsedBody, session);
    },
    async close() {
      await dispatch.close();
      await shared.close().catch(() => {});
    },
  };
}
