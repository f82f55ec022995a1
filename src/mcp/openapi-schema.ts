import { z } from 'zod';
import type { ResponseSpec } from '../domain/openapi-spec.js';

/**
 * The JSON-RPC 2.0 envelope of POST /mcp, for the OpenAPI description only: the MCP SDK validates
 * messages itself (and does not export its schemas), so nothing else uses these.
 */
const JsonRpcIdSchema = z.union([z.string(), z.int()]);

export const JsonRpcRequestSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcIdSchema.optional().describe('Absent for notifications, which are answered 202 with no body.'),
    method: z
      .string()
      .describe('initialize, tools/list, tools/call, resources/list, resources/read, prompts/list, ping, server/discover, ...'),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'JsonRpcRequest' });

export const JsonRpcResponseSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcIdSchema.nullable(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .meta({ id: 'JsonRpcResponse' });

const jsonRpcError = (message: string) => ({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });

const jsonRpc = (description: string, example: unknown): ResponseSpec => ({
  description,
  content: { 'application/json': { schema: JsonRpcResponseSchema, example } },
  headers: ['Cache-Control'],
});

const initializeResult = {
  jsonrpc: '2.0',
  id: 1,
  result: {
    protocolVersion: '2025-11-25',
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    serverInfo: { name: 'review-data-service', version: '1.0.0' },
  },
};

export const mcpPostSchema = {
  operationId: 'mcp',
  summary: 'Model Context Protocol endpoint (streamable HTTP)',
  description:
    'JSON-RPC 2.0 over streamable HTTP. Protocol 2024-11-05 to 2025-11-25: `initialize` answers with an `Mcp-Session-Id` header that every later request sends back. Protocol 2026-07-28: stateless requests, `server/discover`. Tools: get_business, search_reviews, get_review, get_reviews_since, get_insights. See docs/mcp.md.',
  tags: ['mcp'],
  body: JsonRpcRequestSchema,
  bodyExample: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_reviews', arguments: { rating: 1, limit: 3 } } },
  response: {
    200: {
      description: 'The JSON-RPC response (as JSON, or as one server-sent event when the client prefers text/event-stream).',
      content: {
        'application/json': { schema: JsonRpcResponseSchema, example: initializeResult },
        'text/event-stream': { schema: z.string(), example: `event: message\ndata: ${JSON.stringify(initializeResult)}\n\n` },
      },
      headers: ['Mcp-Session-Id', 'Cache-Control'],
    } satisfies ResponseSpec,
    202: {
      description: 'A notification or response from the client was accepted; no body.',
      headers: ['Cache-Control'],
    } satisfies ResponseSpec,
    400: jsonRpc(
      'Missing Mcp-Session-Id, an unsupported MCP-Protocol-Version, or a body that is not JSON-RPC.',
      jsonRpcError('Bad Request: Mcp-Session-Id header is required'),
    ),
    404: jsonRpc('Unknown, expired or deleted session: initialize again.', jsonRpcError('Session not found')),
    406: jsonRpc(
      'Accept must admit application/json and text/event-stream.',
      jsonRpcError('Not Acceptable: Client must accept both application/json and text/event-stream'),
    ),
    415: jsonRpc('Content-Type must be application/json.', jsonRpcError('Unsupported Media Type: Content-Type must be application/json')),
  },
};

export const mcpDeleteSchema = {
  operationId: 'mcpEndSession',
  summary: 'End an MCP session',
  description: 'Ends the session named by the Mcp-Session-Id header, on every replica.',
  tags: ['mcp'],
  response: {
    200: { description: 'The session is ended.', headers: ['Cache-Control'] } satisfies ResponseSpec,
    400: jsonRpc('No Mcp-Session-Id header.', jsonRpcError('Bad Request: Mcp-Session-Id header is required')),
    404: jsonRpc('Unknown, expired or already deleted session.', jsonRpcError('Session not found')),
  },
};
