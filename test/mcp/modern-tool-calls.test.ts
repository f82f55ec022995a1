import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerFactory } from '../../src/mcp/server-factory.js';
import { createMcpTestApp, MODERN_VERSION, type McpTestApp } from './mcp-harness.js';

/** 2026-07-28 tool calls served on a shared instance answer exactly as the SDK's createMcpHandler. */
describe('MCP 2026-07-28 tool calls', () => {
  let t: McpTestApp;
  let sdk: ReturnType<typeof createMcpHandler>;
  beforeAll(async () => {
    t = await createMcpTestApp();
    const factory = createServerFactory({
      snapshots: { current: () => t.snapshot },
      urls: t.urls,
    });
    sdk = createMcpHandler(() => factory(), { legacy: 'reject' });
  });
  afterAll(async () => {
    await sdk.close();
    await t.close();
  });

  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
  const headers = (name: string) => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': 'tools/call',
    'mcp-name': name,
  });

  it.each([
    ['search_reviews', { rating: 5, limit: 3 }],
    ['search_reviews', { rating: 9 }],
    ['get_review', { id: 'no-such-review' }],
    ['get_business', {}],
    ['get_reviews_since', { date: '2025-04-01', limit: 2 }],
    ['get_insights', { section: 'summary' }],
  ])('%s %j', async (name, args) => {
    const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args, _meta: meta } };
    const ours = await t.app.inject({ method: 'POST', url: '/mcp', headers: headers(name), payload: body });
    const theirs = await sdk.fetch(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: headers(name), body: JSON.stringify(body) }),
    );
    expect(ours.statusCode).toBe(theirs.status);
    expect(ours.json()).toEqual(await theirs.json());
    expect(ours.headers['mcp-session-id']).toBeUndefined();
  });

  it('requests the SDK would reject still get its answer (a missing Mcp-Name header)', async () => {
    const body = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_business', arguments: {}, _meta: meta } };
    const { 'mcp-name': _dropped, ...partial } = headers('get_business');
    const r = await t.app.inject({ method: 'POST', url: '/mcp', headers: partial, payload: body });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ id: 8, error: { code: -32020 } });
  });
});
