import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpTestApp, MODERN_VERSION, type McpTestApp } from './mcp-harness.js';

/** The official client of each SDK major over a real socket: the flows real assistants use. */
describe('MCP over a socket with the official clients', () => {
  let t: McpTestApp;
  let url: URL;
  let expectedBusiness: unknown;

  beforeAll(async () => {
    t = await createMcpTestApp();
    url = new URL(`${await t.listen()}/mcp`);
    const doc = (await t.app.inject({ method: 'GET', url: '/reviews.json' })).json() as { business: unknown; aggregate_rating: unknown };
    expectedBusiness = { business: doc.business, aggregate_rating: doc.aggregate_rating };
  });
  afterAll(async () => t.close());

  it('SDK v1 (legacy era): initialize, session, tools, resources, DELETE', async () => {
    const client = new ClientV1({ name: 'review-data-tests-v1', version: '1.0.0' });
    const transport = new TransportV1(url);
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
    expect(client.getInstructions()).toContain('get_insights');
    expect((await client.listTools()).tools).toHaveLength(5);
    const res = await client.callTool({ name: 'get_business', arguments: {} });
    expect(res.structuredContent).toEqual(expectedBusiness);
    const bad = await client.callTool({ name: 'search_reviews', arguments: { rating: 9 } });
    expect(bad.isError).toBe(true);
    expect((await client.listResources()).resources).toHaveLength(4);
    expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    await client.ping();
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    await client.close();
    const after = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });

  it('SDK v2 pinned to 2026-07-28 (modern era): server/discover, stateless, no session', async () => {
    const client = new ClientV2(
      { name: 'review-data-tests-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN_VERSION } } },
    );
    const transport = new TransportV2(url);
    await client.connect(transport);
    try {
      expect(transport.sessionId).toBeUndefined();
      expect(client.getInstructions()).toContain('search_reviews');
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toContain('get_reviews_since');
      expect((await client.callTool({ name: 'get_business', arguments: {} })).structuredContent).toEqual(expectedBusiness);
      const page = await client.callTool({ name: 'search_reviews', arguments: { rating: 5, limit: 2 } });
      expect((page.structuredContent as { count: number }).count).toBeLessThanOrEqual(2);
      // Resource URIs are absolute URLs on BASE_URL (the harness's is http://127.0.0.1).
      expect((await client.readResource({ uri: 'http://127.0.0.1/reviews.json' })).contents).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('SDK v2 in legacy mode gets a session; with default negotiation it works too', async () => {
    const legacy = new ClientV2({ name: 'review-data-tests-v2-legacy', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    const legacyTransport = new TransportV2(url);
    await legacy.connect(legacyTransport);
    try {
      expect(legacyTransport.sessionId).toMatch(/^[\x21-\x7e]+$/);
      expect((await legacy.callTool({ name: 'get_business', arguments: {} })).structuredContent).toEqual(expectedBusiness);
    } finally {
      await legacy.close();
    }
    const auto = new ClientV2({ name: 'review-data-tests-v2-auto', version: '1.0.0' });
    await auto.connect(new TransportV2(url));
    try {
      expect((await auto.callTool({ name: 'get_business', arguments: {} })).structuredContent).toEqual(expectedBusiness);
    } finally {
      await auto.close();
    }
  });

  it('a raw 2026-07-28 request without the _meta envelope is rejected, not served as legacy', async () => {
    const r = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN_VERSION,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(r.status).toBe(400);
    expect(r.headers.get('mcp-session-id')).toBeNull();
  });
});
