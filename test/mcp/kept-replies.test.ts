import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMcpTestApp, INITIALIZE, legacyHeaders, MODERN_VERSION, rpc, type McpTestApp } from './mcp-harness.js';

const META = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const modernHeaders = (name: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN_VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': name,
});
const modernCall = (id: number | string, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, _meta: META },
});

/**
 * Tool-call replies kept per snapshot (src/mcp/kept-replies.ts): a repeat of a call gets the reply the
 * SDK gave to that call, under its own id, without a server instance being connected for it; whatever
 * the SDK's answer also depends on (an era, a session's version, the session check) still applies.
 */
describe('MCP kept tool-call replies', () => {
  let t: McpTestApp;
  let connects: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    connects = vi.spyOn(McpServer.prototype, 'connect');
  });
  afterEach(async () => {
    connects.mockRestore();
    await t.close();
  });

  const post = (payload: unknown, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/mcp', headers, payload: JSON.stringify(payload) });
  const open = async (protocolVersion: string) => {
    const r = await post({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion } }, legacyHeaders());
    return String(r.headers['mcp-session-id']);
  };
  /** The reply's JSON without its id, and its id. */
  const reply = (body: string) => {
    const { id, ...rest } = JSON.parse(body) as { id: unknown };
    return { id, rest };
  };

  it("2026-07-28: from a call's second request on, a repeat is the SDK's reply under its own id, the SDK not running", async () => {
    t = await createMcpTestApp();
    const args = { rating: 5, limit: 3 };
    const first = await post(modernCall(1, 'search_reviews', args), modernHeaders('search_reviews'));
    await post(modernCall(2, 'search_reviews', args), modernHeaders('search_reviews'));
    const before = connects.mock.calls.length;
    for (const id of [3, 'three', 0]) {
      const again = await post(modernCall(id, 'search_reviews', args), modernHeaders('search_reviews'));
      expect(again.statusCode).toBe(200);
      expect(again.headers['content-type']).toBe(first.headers['content-type']);
      expect(reply(again.body)).toEqual({ id, rest: reply(first.body).rest });
    }
    expect(connects.mock.calls.length).toBe(before);
    // Other arguments are another call.
    await post(modernCall(4, 'search_reviews', { rating: 4, limit: 3 }), modernHeaders('search_reviews'));
    expect(connects.mock.calls.length).toBe(before + 1);
  });

  it('a call the SDK would read differently is never answered from a kept reply', async () => {
    t = await createMcpTestApp();
    const args = { rating: 5, limit: 2 };
    for (let i = 0; i < 2; i++) await post(modernCall(i, 'search_reviews', args), modernHeaders('search_reviews'));
    const call = JSON.stringify(modernCall(5, 'search_reviews', args));
    const variants: [string, Record<string, string>][] = [
      // A member besides the call's frame, a parameter header, a header that differs from the body, -0.
      [JSON.stringify({ ...modernCall(5, 'search_reviews', args), extra: true }), modernHeaders('search_reviews')],
      [call, { ...modernHeaders('search_reviews'), 'mcp-param-rating': '5' }],
      [call, { ...modernHeaders('search_reviews'), 'mcp-name': 'get_review' }],
      [call.replace('"limit":2', '"limit":2,"min_rating":-0'), modernHeaders('search_reviews')],
    ];
    for (const [body, headers] of variants) {
      const before = connects.mock.calls.length;
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await t.app.inject({ method: 'POST', url: '/mcp', headers, payload: body }));
      // Each answered by the SDK: by an instance of its own, or refused before any instance exists.
      const served = connects.mock.calls.length - before;
      expect(served === 3 || answers.every((a) => a.statusCode >= 400), `${body} ${JSON.stringify(headers)}`).toBe(true);
    }
  });

  it('2025 sessions: kept per negotiated version, only after the session check', async () => {
    t = await createMcpTestApp();
    const fresh = await createMcpTestApp({ keptReplyBytes: 0 });
    try {
      for (const version of ['2025-03-26', '2025-11-25']) {
        const [sid, freshSid] = [
          await open(version),
          await (async () => {
            const r = await fresh.app.inject({
              method: 'POST',
              url: '/mcp',
              headers: legacyHeaders(),
              payload: { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: version } },
            });
            return String(r.headers['mcp-session-id']);
          })(),
        ];
        const call = (id: number) => rpc(id, 'tools/call', { name: 'get_business', arguments: {} });
        for (let id = 1; id <= 2; id++) await post(call(id), legacyHeaders(sid, version));
        const before = connects.mock.calls.length;
        const kept = await post(call(9), legacyHeaders(sid, version));
        expect(connects.mock.calls.length).toBe(before);
        expect(kept.headers['mcp-session-id']).toBe(sid);
        // What the SDK answers the same call under that version, every call served by it.
        const expected = await fresh.app.inject({
          method: 'POST',
          url: '/mcp',
          headers: legacyHeaders(freshSid, version),
          payload: call(9),
        });
        expect(JSON.parse(kept.body)).toEqual(JSON.parse(expected.body));
        await t.app.inject({ method: 'DELETE', url: '/mcp', headers: legacyHeaders(sid, version) });
        expect((await post(call(10), legacyHeaders(sid, version))).statusCode).toBe(404);
      }
    } finally {
      await fresh.close();
    }
  });

  it('SEARCH_CACHE_BYTES=0 keeps none: every call is served by the SDK', async () => {
    t = await createMcpTestApp({ keptReplyBytes: 0 });
    const before = connects.mock.calls.length;
    for (let id = 1; id <= 4; id++) await post(modernCall(id, 'get_business', {}), modernHeaders('get_business'));
    expect(connects.mock.calls.length).toBe(before + 4);
  });
});
