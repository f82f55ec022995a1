import { classifyInboundRequest, createMcpHandler, isJsonContentType } from '@modelcontextprotocol/server';
import type { FastifyRequest } from 'fastify';
import type { ServiceUrls } from '../domain/urls.js';
import type { SnapshotSource } from '../snapshot/snapshot.js';
import { answerOf, headerOf, rpcError, webRequest, type Answer } from './answer.js';
import { createKeptReplies } from './kept-replies.js';
import { createServerFactory } from './server-factory.js';
import { createSessionRouter, type SessionRouterDeps } from './session-router.js';

export interface EndpointDeps extends Omit<SessionRouterDeps, 'factory' | 'keep'> {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
  /** MCP_MAX_ANSWER_BYTES */
  maxAnswerBytes: number;
}

const MODERN = '2026-07-28';

/**
 * `/mcp` for both protocol eras (contract §5): the SDK's era decision sends a request without the
 * 2026-07-28 `_meta` envelope to the 2025 session router, any other to the SDK's stateless
 * `createMcpHandler` (`server/discover`, no session), as the SDK documents for an endpoint that keeps 2025
 * sessions of its own. What the SDK leaves to such a composition is checked first, for both eras and in
 * its transports' order: a POST's Accept (406) and Content-Type (415), then its body (-32700: not JSON).
 */
export function createMcpEndpoint(deps: EndpointDeps) {
  const factory = createServerFactory(deps);
  const modern = createMcpHandler(factory, { legacy: 'reject', onerror: deps.onError });
  const keep = createKeptReplies(deps.snapshots);
  const legacy = createSessionRouter({ ...deps, factory, keep });

  async function serve(request: FastifyRequest): Promise<Answer> {
    const header = (name: string) => headerOf(request, name);
    let body: unknown;
    if (request.method === 'POST') {
      // Both types, as MCP 2025-11-25 and 2026-07-28 §Transports require, checked as the SDK's 2025 transport does.
      const accept = header('accept') ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
        return rpcError(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
      }
      if (!isJsonContentType(header('content-type') ?? null)) {
        return rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      }
      try {
        body = JSON.parse((request.body as string | undefined) ?? '');
      } catch {
        return rpcError(400, -32700, 'Parse error: Invalid JSON');
      }
    }
    // The SDK's era decision, as its isLegacyRequest takes it, from the request's fields: a fetch Request is
    // made only for the SDK to serve the request, never for a kept reply.
    const [protocolVersionHeader, mcpMethodHeader, mcpNameHeader] = ['mcp-protocol-version', 'mcp-method', 'mcp-name'].map(header);
    const era = classifyInboundRequest({ httpMethod: request.method, protocolVersionHeader, mcpMethodHeader, mcpNameHeader, body });
    if (era.kind === 'legacy') return legacy(request, body);
    const answer = async () => answerOf(await modern.fetch(webRequest(request), { parsedBody: body }));
    // A tool call whose answer the SDK takes from its body alone: the standard headers of MCP 2026-07-28
    // §Transports equal to the body, and no `Mcp-Param-*` header, which it would check against the arguments.
    const name = (body as { params?: { name?: unknown } } | undefined)?.params?.name;
    const plain = protocolVersionHeader === MODERN && mcpMethodHeader === 'tools/call' && mcpNameHeader === name;
    const kept = era.kind === 'modern' && plain && !Object.keys(request.headers).some((h) => h.startsWith('mcp-param-'));
    return kept ? keep(MODERN, body, answer) : answer();
  }

  return { serve, close: () => modern.close() };
}

export type McpEndpointHandler = ReturnType<typeof createMcpEndpoint>;
