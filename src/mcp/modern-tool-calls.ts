import { classifyInboundRequest, type JSONRPCRequest, type Server } from '@modelcontextprotocol/server';
import { BARE_JSON_MEDIA_TYPE } from '../domain/media-types.js';
import { DispatchTransport } from './dispatch-transport.js';
import type { LegacyAnswer } from './legacy-handler.js';

const MODERN = '2026-07-28';

/**
 * 2026-07-28 `tools/call` requests for our own tools, on one long-lived instance bound to that
 * revision (as the session era is served; see dispatch-transport.ts), instead of the SDK's
 * per-request instance, transport and fetch Request/Response (`createMcpHandler`), which cost several
 * times the call itself (docs/benchmarks.md, MCP).
 *
 * Only a request the SDK's own classifier routes to its modern leg, with the standard headers of
 * 2026-07-28 (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) present and equal to the body, takes
 * this path; every other request, including every one the SDK would reject, goes to `createMcpHandler`,
 * which answers it. Tools need no client capability, so the capability check has nothing to add.
 */
export function createModernToolCalls(deps: { factory: () => Server; toolNames: ReadonlySet<string>; onError?: (error: Error) => void }) {
  const dispatch = new DispatchTransport();
  const shared = deps.factory();
  if (deps.onError) dispatch.onerror = deps.onError;
  const connected = shared.connect(dispatch).then(() => {
    // What createMcpHandler does to each of its instances (the SDK's setNegotiatedProtocolVersion,
    // not exported): results are then encoded for 2026-07-28, serverInfo in `_meta` included.
    (shared as unknown as { _negotiatedProtocolVersion?: string })._negotiatedProtocolVersion = MODERN;
  });

  return {
    /** The request, when this path may serve it. */
    accepts(header: (name: string) => string | undefined, body: unknown): JSONRPCRequest | undefined {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
      const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
      if (method !== 'tools/call' || typeof params?.name !== 'string' || !deps.toolNames.has(params.name)) return undefined;
      const protocolVersionHeader = header('mcp-protocol-version');
      const mcpMethodHeader = header('mcp-method');
      const mcpNameHeader = header('mcp-name');
      if (protocolVersionHeader !== MODERN || mcpMethodHeader !== method || mcpNameHeader !== params.name) return undefined;
      const outcome = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader, mcpMethodHeader, mcpNameHeader, body });
      if (outcome.kind !== 'modern' || outcome.classification.revision !== MODERN) return undefined;
      return body as JSONRPCRequest;
    },

    async handle(request: JSONRPCRequest): Promise<LegacyAnswer> {
      await connected;
      const reply = await dispatch.request(request);
      return { status: 200, headers: { 'content-type': BARE_JSON_MEDIA_TYPE }, body: JSON.stringify(reply) };
    },

    async close(): Promise<void> {
      await dispatch.close();
      await shared.close().catch(() => {});
    },
  };
}
