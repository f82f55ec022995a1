import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpTestApp, MODERN_VERSION, type McpTestApp } from './mcp-harness.js';

/**
 * Issue 15: 2026-07-28 tool calls are answered on the socket before Fastify (src/mcp/before-fastify.ts).
 * `inject` never reaches that listener, so these go over a real connection and are compared with the
 * same request through Fastify's full path: the same status, headers in the same order, and bytes.
 */
let t: McpTestApp;
let base: string;
const early: [string, number][] = [];

// Written by node:http on every answer, not by either path.
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive']);

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

function post(body: string, headers: Record<string, string>, path = '/mcp'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolve({
          status: res.statusCode!,
          headers: pairs.filter(([n]) => !PER_CONNECTION.has(n)),
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The same request through Fastify: an X-Forwarded-For header keeps it off the early path. */
const viaFastify = (body: string, headers: Record<string, string>) => post(body, { ...headers, 'x-forwarded-for': '127.0.0.1' });

const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const headersFor = (name: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN_VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': name,
});
const call = (id: number | string, name: string, args: Record<string, unknown>, params: Record<string, unknown> = { _meta: meta }) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...params } });

beforeAll(async () => {
  t = await createMcpTestApp({ onEarlyAnswer: (url, status) => void early.push([url, status]) });
  base = await t.listen();
  // The SDK loads on the first MCP request, which Fastify serves; the early path waits for it.
  await post(call(0, 'get_business', {}), headersFor('get_business'));
});
afterAll(async () => {
  await t.close();
});

describe('2026-07-28 tool calls before Fastify', () => {
  it.each([
    ['search_reviews', { rating: 5, limit: 3 }],
    ['search_reviews', { rating: 9 }],
    ['search_reviews', { min_rating: 4, limit: 4, fields: ['id', 'rating'] }],
    ['get_review', { id: 'no-such-review' }],
    ['get_business', {}],
    ['get_reviews_since', { date: '2025-04-01', limit: 2 }],
    ['get_insights', { section: 'summary' }],
  ])('%s %j: the answer of the full path, headers and bytes', async (name, args) => {
    const body = call(7, name, args);
    early.length = 0;
    const ours = await post(body, headersFor(name));
    expect(early).toEqual([['/mcp', 200]]);
    const theirs = await viaFastify(body, headersFor(name));
    expect(early).toHaveLength(1);
    expect(ours).toEqual(theirs);
    expect(ours.headers).toContainEqual(['access-control-allow-origin', '*']);
    expect(ours.headers).toContainEqual(['cache-control', 'no-store']);
  });

  it('answers each call under its own id', async () => {
    const [a, b] = await Promise.all([
      post(call('a', 'search_reviews', { rating: 5, limit: 1 }), headersFor('search_reviews')),
      post(call(1, 'search_reviews', { rating: 5, limit: 1 }), headersFor('search_reviews')),
    ]);
    expect(JSON.parse(a!.body)).toMatchObject({ id: 'a', result: { structuredContent: { count: 1 } } });
    expect(JSON.parse(b!.body)).toMatchObject({ id: 1, result: { structuredContent: { count: 1 } } });
  });

  it.each([
    ['not JSON', '{"jsonrpc":', headersFor('get_business')],
    ['no _meta envelope', call(8, 'get_business', {}, {}), headersFor('get_business')],
    ['an unknown tool', call(9, 'no_such_tool', {}), headersFor('no_such_tool')],
    ['a Mcp-Name header that is not the tool', call(10, 'get_business', {}), headersFor('search_reviews')],
    ['a JSON-RPC version other than 2.0', call(11, 'get_business', {}).replace('"2.0"', '"1.0"'), headersFor('get_business')],
  ])('%s: read here, answered by Fastify as before', async (_what, body, headers) => {
    early.length = 0;
    const ours = await post(body, headers);
    expect(early).toEqual([]);
    expect(ours).toEqual(await viaFastify(body, headers));
    // An HTTP error, or (an unknown tool, MCP 2026-07-28 §Tools) a JSON-RPC error with 200.
    expect(ours.status !== 200 || 'error' in (JSON.parse(ours.body) as object)).toBe(true);
  });

  it('leaves other requests to Fastify unread', async () => {
    early.length = 0;
    const { 'mcp-method': _m, ...noMethod } = headersFor('get_business');
    const bare = { ...headersFor('get_business'), 'content-type': 'text/plain' };
    for (const headers of [noMethod, bare]) {
      const ours = await post(call(12, 'get_business', {}), headers);
      expect(ours).toEqual(await viaFastify(call(12, 'get_business', {}), headers));
    }
    expect(early).toEqual([]);
  });
});
