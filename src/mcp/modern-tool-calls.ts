import {
  classifyInboundRequest,
  PerRequestHTTPServerTransport,
  type JSONRPCRequest,
  type MessageClassification,
  type Server,
} from '@modelcontextprotocol/server';
import type { LegacyAnswer } from './legacy-handler.js';
import type { ServerInstanceOptions } from './server-factory.js';

const MODERN = '2026-07-28';

/** Idle instances kept for reuse; more run at once under load, and the extra ones are dropped after. */
const POOL_SIZE = 16;

/**
 * 2026-07-28 `tools/call` requests for our own tools, served through the SDK's public per-request
 * transport (`PerRequestHTTPServerTransport`, the one `createMcpHandler` uses) on server instances
 * taken from a small pool instead of built for each request.
 *
 * The SDK's rule is one transport per instance at a time ("call close() first" to reconnect, see
 * `Server.connect`); the per-request transport closes itself once it has answered, which disconnects
 * the instance, and connecting an instance to a per-request transport binds it to the transport's
 * classified revision, so 2026-07-28 results are encoded as `createMcpHandler` encodes them (serverInfo
 * in `_meta` included). The instances hold nothing between requests (tools read the current snapshot),
 * so reusing one changes no answer; what it saves is building a server and its handler closures per
 * call (docs/benchmarks.md, MCP).
 *
 * Only a request the SDK's own classifier routes to its modern leg, with the standard headers of
 * 2026-07-28 (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) present and equal to the body, takes
 * this path; every other request, including every one the SDK would reject, goes to `createMcpHandler`,
 * which answers it. Tools need no client capability, so the capability check has nothing to add.
 */
export function createModernToolCalls(deps: {
  factory: (options: ServerInstanceOptions) => Server;
  toolNames: ReadonlySet<string>;
  onError?: (error: Error) => void;
}) {
  const idle: Server[] = [];
  let closed = false;

  /** An instance whose transport has closed (the per-request transport closes itself after answering). */
  function release(server: Server, done: Promise<void>): void {
    void done.then(() => {
      if (!closed && idle.length < POOL_SIZE) idle.push(server);
      else void server.close().catch(() => {});
    });
  }

  return {
    /** The request and its classification, when this path may serve it. */
    accepts(
      header: (name: string) => string | undefined,
      body: unknown,
    ): { request: JSONRPCRequest; classification: MessageClassification } | undefined {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
      const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
      if (method !== 'tools/call' || typeof params?.name !== 'string' || !deps.toolNames.has(params.name)) return undefined;
      const protocolVersionHeader = header('mcp-protocol-version');
      const mcpMethodHeader = header('mcp-method');
      const mcpNameHeader = header('mcp-name');
      if (protocolVersionHeader !== MODERN || mcpMethodHeader !== method || mcpNameHeader !== params.name) return undefined;
      const outcome = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader, mcpMethodHeader, mcpNameHeader, body });
      if (outcome.kind !== 'modern' || outcome.classification.revision !== MODERN) return undefined;
      return { request: body as JSONRPCRequest, classification: outcome.classification };
    },

    async handle(call: { request: JSONRPCRequest; classification: MessageClassification }): Promise<LegacyAnswer> {
      if (closed) return { status: 503, headers: {}, body: null };
      const server = idle.pop() ?? deps.factory({ modernRevision: MODERN });
      const transport = new PerRequestHTTPServerTransport({ classification: call.classification, responseMode: 'json' });
      if (deps.onError) transport.onerror = deps.onError;
      const done = new Promise<void>((resolve) => {
        const previous = server.onclose;
        server.onclose = () => {
          server.onclose = previous;
          resolve();
        };
      });
      try {
        await server.connect(transport);
        const response = await transport.handleMessage(call.request);
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => (headers[name] = value));
        return { status: response.status, headers, body: await response.text() };
      } finally {
        release(server, done);
      }
    },

    async close(): Promise<void> {
      closed = true;
      await Promise.all(idle.splice(0).map((s) => s.close().catch(() => {})));
    },
  };
}
