import { classifyInboundRequest, createMcpHandler, isJsonContentType } from '@modelcontextprotocol/server';
import type { ServiceUrls } from '../domain/urls.js';
import type { SnapshotSource } from '../snapshot/snapshot.js';
import { createKeptReplies, type Answer } from './kept-replies.js';
import { createServerFactory } from './server-factory.js';
import { answerOf, createSessionRouter, rpcError, type McpRequest, type SessionRouterDeps } from './session-router.js';

export interface EndpointDeps extends Omit<SessionRouterDeps, 'factory' | 'keep'> {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
  /** MCP_MAX_ANSWER_BYTES */
  maxAnswerBytes: number;
  /** The bytes of tool-call replies kept per snapshot (SEARCH_CACHE_BYTES; 0 keeps none). */
  keptReplyBytes: number;
}

const MODERN = '2026-07-28';

/**
 * The scope of a 2026-07-28 tool call whose answer the SDK derives from its body alone: the standard
 * headers present and equal to the body (MCP 2026-07-28 §Transports), and no `Mcp-Param-*` header.
 */
function modernScope(request: McpRequest, body: unknown): string | undefined {
  const name = (body as { params?: { name?: unknown } } | null)?.params?.name;
  const { header } = request;
  if (header('mcp-protocol-version') !== MODERN || header('mcp-method') !== 'tools/call' || header('mcp-name') !== name) return undefined;
  return request.headerNames().some((h) => h.startsWith('mcp-param-')) ? undefined : MODERN;
}

/** What a POST's Accept must admit (MCP 2025-11-25 and 2026-07-28 §Transports, "Sending Messages to the Server"). */
function acceptsJsonAndSse(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  const any = types.includes('*/*');
  return (
    (any || types.includes('application/json') || types.includes('application/*')) &&
    (any || types.includes('text/event-stream') || types.includes('text/*'))
  );
}

/**
 * `/mcp` for both protocol eras (contract §5): the SDK's era decision routes a request without the
 * 2026-07-28 `_meta` envelope to the 2025 session router, everything else to the SDK's stateless
 * `createMcpHandler` (`server/discover`, no session), as the SDK documents for an endpoint that keeps
 * 2025 sessions of its own. What the SDK leaves to such a composition is checked first, for both
 * eras alike and in its transports' order: the Accept (406) and Content-Type (415) of a POST, then its
 * body (-32700 when not JSON).
 */
export function createMcpEndpoint(deps: EndpointDeps) {
  const factory = createServerFactory(deps);
  const modern = createMcpHandler(factory, { legacy: 'reject', onerror: deps.onError });
  const keep = createKeptReplies(deps.snapshots, deps.keptReplyBytes);
  const legacy = createSessionRouter({ ...deps, factory, keep });
  return {
    async fetch(request: McpRequest): Promise<Answer> {
      const { method, header } = request;
      let parsedBody: unknown;
      if (method === 'POST') {
        if (!acceptsJsonAndSse(header('accept'))) {
          return rpcError(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
        }
        if (!isJsonContentType(header('content-type') ?? null)) {
          return rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
        }
        try {
          parsedBody = JSON.parse(request.body ?? '');
        } catch {
          return rpcError(400, -32700, 'Parse error: Invalid JSON');
        }
      }
      // The SDK's era decision (what its isLegacyRequest runs), from the request's fields: a fetch Request is
      // only built when the SDK serves the request, not for a kept reply.
      const era = classifyInboundRequest({
        httpMethod: method,
        protocolVersionHeader: header('mcp-protocol-version'),
        mcpMethodHeader: header('mcp-method'),
        mcpNameHeader: header('mcp-name'),
        ...(parsedBody === undefined ? {} : { body: parsedBody }),
      });
      if (era.kind === 'legacy') return legacy(request, parsedBody);
      const answer = async () => answerOf(await modern.fetch(request.web(), { parsedBody }));
      const scope = era.kind === 'modern' ? modernScope(request, parsedBody) : undefined;
      return scope === undefined ? answer() : keep(scope, parsedBody, answer);
    },
    close: () => modern.close(),
  };
}

export type McpEndpointHandler = ReturnType<typeof createMcpEndpoint>;
