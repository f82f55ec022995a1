import { classifyInboundRequest, type JSONRPCRequest, type MessageClassification, type Server } from '@modelcontextprotocol/server';
import { JSON_MEDIA_TYPE } from '../domain/media-types.js';
import type { KeptReplies } from './kept-replies.js';
import type { LegacyAnswer } from './legacy-handler.js';
import { ModernDispatchTransport } from './modern-dispatch-transport.js';
import { replyBytes } from './reply-bytes.js';
import type { ServerInstanceOptions } from './server-factory.js';

const MODERN = '2026-07-28';

/**
 * 2026-07-28 `tools/call` requests for our own tools, served by one long-lived server instance bound
 * to 2026-07-28 through the SDK's per-request transport class (modern-dispatch-transport.ts), instead
 * of a server and a transport per call. The instance holds nothing between requests (tools read the
 * current snapshot), so sharing it changes no answer; results are encoded by the SDK's 2026-07-28
 * codec, serverInfo in `_meta` included, exactly as `createMcpHandler` encodes them.
 *
 * Only a request the SDK's own classifier routes to its modern leg, with the standard headers of
 * 2026-07-28 (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) present and equal to the body, takes
 * this path; every other request, including every one the SDK would reject, goes to `createMcpHandler`,
 * which answers it. So does a call the instance withdraws (see the transport), and every call if the
 * instance did not bind to 2026-07-28. Tools need no client capability, so the capability check has
 * nothing to add.
 */
export function createModernToolCalls(deps: {
  factory: (options: ServerInstanceOptions) => Server;
  toolNames: ReadonlySet<string>;
  onError?: (error: Error) => void;
  /** Where replies are kept per snapshot (`call`); none are kept without it. */
  replies?: KeptReplies;
}) {
  const transport = new ModernDispatchTransport(MODERN);
  if (deps.onError) transport.onerror = deps.onError;
  const server = deps.factory({ modernRevision: MODERN });
  let bound: boolean | undefined;
  const binding = server.connect(transport).then(
    () => (bound = server.getNegotiatedProtocolVersion() === MODERN),
    (error: unknown) => {
      deps.onError?.(error instanceof Error ? error : new Error(String(error)));
      return (bound = false);
    },
  );

  const serve = async (call: { request: JSONRPCRequest; classification: MessageClassification }): Promise<LegacyAnswer | undefined> => {
    if (!(bound ?? (await binding))) return undefined;
    const reply = await transport.dispatch(call.request, call.classification);
    // The per-request transport's answer to a handler's result or error: 200, JSON (MCP 2026-07-28 §Transports),
    // typed as Fastify typed it when it was a string.
    return reply && { status: 200, headers: { 'content-type': JSON_MEDIA_TYPE }, body: replyBytes(reply) };
  };
  const accepts = (
    header: (name: string) => string | undefined,
    body: unknown,
  ): { request: JSONRPCRequest; classification: MessageClassification } | undefined => {
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
  };

  return {
    /** The request and its classification, when this path may serve it. */
    accepts,

    /**
     * A 2026-07-28 tool call's answer (`accepts`, then `handle`), or undefined to leave it to
     * `createMcpHandler`. A snapshot's reply to the same params is the same bytes but for the id, so
     * replies are kept per snapshot within SEARCH_CACHE_BYTES, like REST's search answers (issue 15):
     * a call with given params is served by the SDK's server as `handle` serves it, and its reply
     * kept from the second such call on; a repeat of exactly that call, the same headers and params
     * under another id, then gets that reply under its own id without running the SDK again (what the SDK would do is what it did: its classification
     * and its server read nothing else of the request, and the tools nothing but the snapshot).
     */
    async call(header: (name: string) => string | undefined, body: unknown): Promise<LegacyAnswer | undefined> {
      const run = async () => {
        const call = accepts(header, body);
        return call ? ((await serve(call))?.body ?? undefined) : undefined;
      };
      const name = (body as { params?: { name?: unknown } } | null)?.params?.name;
      // The headers accepts() compares with the message, as it compares them: only then is a kept reply the SDK's.
      const standard =
        typeof name === 'string' &&
        header('mcp-protocol-version') === MODERN &&
        header('mcp-method') === 'tools/call' &&
        header('mcp-name') === name;
      const reply = standard && deps.replies ? await deps.replies.reply(MODERN, body, run) : await run();
      // The per-request transport's answer to a handler's result or error: 200, JSON (MCP 2026-07-28 §Transports).
      return reply === undefined ? undefined : { status: 200, headers: { 'content-type': JSON_MEDIA_TYPE }, body: reply };
    },

    /** The answer, or undefined to leave the request to `createMcpHandler`. */
    handle: serve,

    async close(): Promise<void> {
      await server.close().catch(() => {});
    },
  };
}
