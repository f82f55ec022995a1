import { z } from 'zod';

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

const jsonRpc = (description: string) => ({ description, content: { 'application/json': { schema: JsonRpcResponseSchema } } });

export const mcpPostSchema = {
  operationId: 'mcp',
  summary: 'Model Context Protocol endpoint (streamable HTTP)',
  description:
    'JSON-RPC 2.0 over streamable HTTP. Protocol 2024-11-05 to 2025-11-25: `initialize` answers with an `Mcp-Session-Id` header that every later request sends back. Protocol 2026-07-28: stateless requests, `server/discover`. Tools: get_business, search_reviews, get_review, get_reviews_since, get_insights. See docs/mcp.md.',
  tags: ['mcp'],
  body: JsonRpcRequestSchema,
  response: {
    200: {
      description: 'The JSON-RPC response (as JSON, or as one server-sent event when the client prefers text/event-stream).',
      content: { 'application/json': { schema: JsonRpcResponseSchema }, 'text/event-stream': { schema: z.string() } },
    },
    202: z.null().describe('A notification or response from the client was accepted; no body.'),
    400: jsonRpc('Missing Mcp-Session-Id, an unsupported MCP-Protocol-Version, or a body that is not JSON-RPC.'),
    404: jsonRpc('Unknown, expired or deleted session: initialize again.'),
    406: jsonRpc('Accept must admit application/json and text/event-stream.'),
    415: jsonRpc('Content-Type must be application/json.'),
  },
};

export const mcpDeleteSchema = {
  operationId: 'mcpEndSession',
  summary: 'End an MCP session',
  description: 'Ends the session named by the Mcp-Session-Id header, on every replica.',
  tags: ['mcp'],
  response: {
    200: z.null().describe('The session is ended.'),
    400: jsonRpc('No Mcp-Session-Id header.'),
    404: jsonRpc('Unknown, expired or already deleted session.'),
  },
};
