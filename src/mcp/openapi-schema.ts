import { z } from 'zod';
import type { ResponseSpec } from '../domain/openapi-spec.js';

/**
 * The JSON-RPC 2.0 envelope of POST /mcp, for the OpenAPI description only: the MCP SDK validates
 * messages itself, with its own schemas.
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

const jsonRpc = (description: string, message: string): ResponseSpec => ({
  description,
  content: {
    'application/json': { schema: JsonRpcResponseSchema, example: { jsonrpc: '2.0', id: null, error: { code: -32000, message } } },
  },
  headers: ['Cache-Control'],
});
const noSession = jsonRpc('No Mcp-Session-Id header (protocol 2025-11-25 and earlier).', 'Bad Request: Mcp-Session-Id header is required');
const unknownSession = jsonRpc('Unknown, expired or deleted session: initialize again.', 'Session not found');

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
      description: 'The JSON-RPC response, as JSON.',
      content: { 'application/json': { schema: JsonRpcResponseSchema } },
      headers: ['Mcp-Session-Id', 'Cache-Control'],
    } satisfies ResponseSpec,
    202: {
      description: 'A notification or response from the client was accepted; no body.',
      headers: ['Cache-Control'],
    } satisfies ResponseSpec,
    400: jsonRpc('No Mcp-Session-Id, another MCP-Protocol-Version than the session, or a body that is not JSON-RPC.', 'Bad Request'),
    404: unknownSession,
    406: jsonRpc('Accept must admit application/json and text/event-stream.', 'Not Acceptable'),
    415: jsonRpc('Content-Type must be application/json.', 'Unsupported Media Type'),
  },
};

export const mcpDeleteSchema = {
  operationId: 'mcpEndSession',
  summary: 'End an MCP session',
  description: 'Ends the session named by the Mcp-Session-Id header, on every replica.',
  tags: ['mcp'],
  response: {
    200: { description: 'The session is ended.', headers: ['Cache-Control'] } satisfies ResponseSpec,
    400: noSession,
    404: unknownSession,
  },
};
