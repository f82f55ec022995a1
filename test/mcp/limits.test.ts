import { afterEach, describe, expect, it } from 'vitest';
import { createMcpTestApp, INITIALIZE, legacyHeaders, MODERN_VERSION, rpc, type McpTestApp } from './mcp-harness.js';

/** Bounded work per request and the protocol errors the red-team run found. */
describe('MCP limits and protocol errors', () => {
  let t: McpTestApp;
  afterEach(async () => t.close());

  async function open(): Promise<string> {
    const r = await t.app.inject({ method: 'POST', url: '/mcp', headers: legacyHeaders(), payload: INITIALIZE });
    expect(r.statusCode).toBe(200);
    return String(r.headers['mcp-session-id']);
  }
  const post = (payload: unknown, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/mcp', headers, payload: JSON.stringify(payload) });

  it('a batch over MCP_MAX_BATCH is one -32600 error and runs nothing; at the limit it is answered', async () => {
    t = await createMcpTestApp({ limits: { maxBatch: 5 } });
    const sid = await open();
    const batch = (n: number) => Array.from({ length: n }, (_, i) => rpc(i + 1, 'tools/call', { name: 'get_business', arguments: {} }));
    const over = await post(batch(6), legacyHeaders(sid));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('limit of 5') },
    });
    const at = await post(batch(5), legacyHeaders(sid));
    expect(at.statusCode).toBe(200);
    expect((at.json() as unknown[]).length).toBe(5);
  });

  it("a batch's answer stops growing at MCP_MAX_ANSWER_BYTES: later calls get an error instead of running", async () => {
    t = await createMcpTestApp({ limits: { maxAnswerBytes: 20_000 } });
    const sid = await open();
    const calls = Array.from({ length: 10 }, (_, i) => rpc(i + 1, 'tools/call', { name: 'search_reviews', arguments: { limit: 20 } }));
    const reads = [rpc(11, 'resources/read', { uri: t.urls.feedJson })];
    const r = await post([...calls, ...reads], legacyHeaders(sid));
    expect(r.statusCode).toBe(200);
    type Reply = { id: number; result?: { isError?: boolean; content?: { text: string }[] }; error?: { code: number } };
    const replies = r.json() as Reply[];
    expect(replies.map((x) => x.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const cut = replies.findIndex((x) => x.result?.isError);
    expect(cut).toBeGreaterThan(0);
    // A tool call past the limit is a tool error (tool failures are results, MCP 2025-11-25 §Tools); a read, -32005.
    for (const x of replies.slice(cut, 10)) expect(JSON.parse(x.result!.content![0]!.text)).toMatchObject({ code: 'payload_too_large' });
    expect(replies[10]).toMatchObject({ error: { code: -32005 } });
    expect(r.body.length).toBeLessThan(20_000 + 2 * 20_000);
  });

  it('resources/read of a document over MCP_MAX_ANSWER_BYTES is a JSON-RPC error naming its URL; tool answers over it are tool errors', async () => {
    t = await createMcpTestApp({ limits: { maxAnswerBytes: 4096 } });
    const sid = await open();
    const uri = t.urls.reviewsJson;
    const r = await post(rpc(2, 'resources/read', { uri }), legacyHeaders(sid));
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id: 2, error: { code: -32005, message: expect.stringContaining(uri) } });
    const feed = await post(rpc(3, 'tools/call', { name: 'search_reviews', arguments: { limit: 100 } }), legacyHeaders(sid));
    const result = (feed.json() as { result: { isError: boolean; content: { text: string }[] } }).result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ code: 'payload_too_large' });
  });

  it('"jsonrpc": "1.0" and other non-JSON-RPC bodies are -32600 Invalid Request (parse errors stay -32700)', async () => {
    t = await createMcpTestApp();
    const sid = await open();
    for (const body of [
      { jsonrpc: '1.0', id: 4, method: 'tools/list' },
      { id: 5, method: 'tools/list' },
      { jsonrpc: '2.0', id: 6 },
    ]) {
      const r = await post(body, legacyHeaders(sid));
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    }
    const broken = await t.app.inject({ method: 'POST', url: '/mcp', headers: legacyHeaders(sid), payload: '{"jsonrpc":' });
    expect(broken.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('initialize with a protocolVersion that is not a string is a JSON-RPC error naming the field, and opens no session', async () => {
    t = await createMcpTestApp();
    for (const protocolVersion of [20251125, null, { v: 1 }]) {
      const r = await post(
        rpc(1, 'initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
        legacyHeaders(),
      );
      expect(r.statusCode).toBeLessThan(500);
      // The SDK answers -32603 with its schema's message (to be -32602: modelcontextprotocol/typescript-sdk#2284).
      const body = r.json() as { id: number; error: { code: number; message: string } };
      expect(body).toMatchObject({ id: 1, error: { code: expect.any(Number), message: expect.stringContaining('protocolVersion') } });
      expect(r.headers['mcp-session-id']).toBeUndefined();
    }
  });

  it('a store failure while recording a session answers 503 with Retry-After, not 500', async () => {
    t = await createMcpTestApp({
      wrapSessionStore: (store) => ({
        ...store,
        insert: () => Promise.reject(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })),
      }),
    });
    const r = await post(INITIALIZE, legacyHeaders());
    expect(r.statusCode).toBe(503);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect(r.json()).toMatchObject({ id: 1, error: { code: -32000 } });
    expect(r.body).not.toContain('SQLITE_FULL');
  });

  it('2026-07-28 requests without Accept of both JSON and SSE are 406, as in the 2025 era', async () => {
    t = await createMcpTestApp();
    const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
    const modern = (accept: string, method: string, name?: string) => ({
      'content-type': 'application/json',
      accept,
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    });
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_business', arguments: {}, _meta: meta } };
    const discover = { jsonrpc: '2.0', id: 4, method: 'server/discover', params: { _meta: meta } };
    expect((await post(call, modern('application/json', 'tools/call', 'get_business'))).statusCode).toBe(406);
    expect((await post(discover, modern('application/json', 'server/discover'))).statusCode).toBe(406);
    expect((await post(call, modern('application/json, text/event-stream', 'tools/call', 'get_business'))).statusCode).toBe(200);
    expect((await post(discover, modern('text/event-stream, application/json', 'server/discover'))).statusCode).toBe(200);
  });
});
