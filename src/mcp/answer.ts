import type { FastifyRequest } from 'fastify';

/** An HTTP answer of /mcp: status, headers, and the body's bytes (none: null). */
export interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer | null;
}

/** A request header as one string (repeated ones joined, as fetch's Headers joins them). */
export function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The request as the SDK's fetch-shaped handlers take it, without its body: they are given it parsed. */
export function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers.set(name, headerOf(request, name)!);
  return new Request(`http://${request.host || 'localhost'}${request.url}`, { method: request.method, headers });
}

/** A fetch Response as an Answer, read whole: no tool streams. */
export async function answerOf(response: Response): Promise<Answer> {
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => name !== 'content-length' && headers.push([name, value]));
  return { status: response.status, headers, body: response.body === null ? null : Buffer.from(await response.arrayBuffer()) };
}

/** A JSON-RPC error as an HTTP answer (MCP 2025-11-25 §Transports answers errors this way). */
export function rpcError(status: number, code: number, message: string, id: unknown = null, headers: [string, string][] = []): Answer {
  const echoed = typeof id === 'string' || typeof id === 'number' ? id : null;
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: echoed }));
  return { status, headers: [['content-type', 'application/json'], ...headers], body };
}
