import { createMcpHandler, type JSONRPCRequest } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeptReplies } from '../../src/mcp/kept-replies.js';
import { ModernDispatchTransport } from '../../src/mcp/modern-dispatch-transport.js';
import { createModernToolCalls } from '../../src/mcp/modern-tool-calls.js';
import { createServerFactory, TOOL_NAMES } from '../../src/mcp/server-factory.js';
import { countingServerFactory, createMcpTestApp, MODERN_VERSION, type McpTestApp } from './mcp-harness.js';

/** 2026-07-28 tool calls served on a shared instance answer exactly as the SDK's createMcpHandler. */
describe('MCP 2026-07-28 tool calls', () => {
  let t: McpTestApp;
  let sdk: ReturnType<typeof createMcpHandler>;
  let factory: ReturnType<typeof createServerFactory>;
  beforeAll(async () => {
    t = await createMcpTestApp();
    factory = createServerFactory({
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
  const headers = (name: string): Record<string, string> => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': 'tools/call',
    'mcp-name': name,
  });

  it.each([
    ['search_reviews', { rating: 5, limit: 3 }],
    ['search_reviews', { rating: 9 }],
    ['search_reviews', { min_rating: 4, limit: 4, fields: ['id', 'rating'] }],
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
    // The type Fastify gave these answers as strings (contract §4's JSON type), kept now that they are bytes.
    expect(ours.headers['content-type']).toBe('application/json; charset=utf-8');
    // Byte for byte: the same SDK encoding, and structuredContent serialized as the SDK serializes it.
    expect(ours.body).toBe(await theirs.text());
    expect(ours.headers['mcp-session-id']).toBeUndefined();
  });

  it('requests the SDK would reject still get its answer (a missing Mcp-Name header)', async () => {
    const body = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_business', arguments: {}, _meta: meta } };
    const { 'mcp-name': _dropped, ...partial } = headers('get_business');
    const r = await t.app.inject({ method: 'POST', url: '/mcp', headers: partial, payload: body });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ id: 8, error: { code: -32020 } });
  });

  const toolCall = (id: number, name: string, args: Record<string, unknown>, withMeta = true): JSONRPCRequest => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(withMeta ? { _meta: meta } : {}) },
  });

  it('one shared instance answers concurrent calls that reuse an id, each its own answer, as createMcpHandler does', async () => {
    const calls = createModernToolCalls({ factory, toolNames: TOOL_NAMES });
    try {
      const args = [{ rating: 5, limit: 2 }, { rating: 1, limit: 3 }, { query: 'drain' }, { sort: 'oldest', limit: 1 }];
      const bodies = args.map((a) => toolCall(1, 'search_reviews', a));
      const answers = await Promise.all(
        bodies.map((body) => {
          const call = calls.accepts((name) => headers('search_reviews')[name], body);
          if (!call) throw new Error('not accepted');
          return calls.handle(call);
        }),
      );
      for (const [i, body] of bodies.entries()) {
        const theirs = await sdk.fetch(
          new Request('http://127.0.0.1/mcp', { method: 'POST', headers: headers('search_reviews'), body: JSON.stringify(body) }),
        );
        const answer = answers[i]!;
        expect(answer.status).toBe(200);
        expect(Buffer.isBuffer(answer.body) ? answer.body.toString('utf8') : answer.body).toBe(await theirs.text());
      }
    } finally {
      await calls.close();
    }
  });

  it('a repeated call gets the reply the SDK gave to the same params, under its own id, without running again', async () => {
    const tools = { reads: 0 };
    let snapshot = t.snapshot;
    // The tools read this source; the calls key their replies by the snapshot of the other.
    const counted = countingServerFactory(t.urls, () => snapshot, tools);
    let budget = 1 << 20;
    const calls = createModernToolCalls({
      factory: counted,
      toolNames: TOOL_NAMES,
      replies: createKeptReplies({ snapshots: { current: () => snapshot }, budget: () => budget }),
    });
    // Making the server instance read it once (its instructions); from now on, only tools do.
    tools.reads = 0;
    const answer = async (body: JSONRPCRequest, name = 'search_reviews') => {
      const a = await calls.call((h) => headers(name)[h], body);
      return a && (Buffer.isBuffer(a.body) ? a.body.toString('utf8') : a.body);
    };
    const theirs = async (body: JSONRPCRequest) =>
      (
        await sdk.fetch(
          new Request('http://127.0.0.1/mcp', { method: 'POST', headers: headers('search_reviews'), body: JSON.stringify(body) }),
        )
      ).text();
    try {
      const args = { rating: 5, limit: 2 };
      for (const id of [1, 'x', 2])
        expect(await answer(toolCall(id as number, 'search_reviews', args))).toBe(
          await theirs(toolCall(id as number, 'search_reviews', args)),
        );
      // Kept from the second call on (answer-cache.ts, askedBefore): the SDK ran for the first two only.
      expect(tools.reads).toBe(2);
      // Other params, a header that differs from the message, an id the SDK refuses: not a repeat.
      expect(await answer(toolCall(3, 'search_reviews', { rating: 5, limit: 3 }))).toBe(
        await theirs(toolCall(3, 'search_reviews', { rating: 5, limit: 3 })),
      );
      expect(tools.reads).toBe(3);
      expect(await answer(toolCall(4, 'search_reviews', args), 'get_business')).toBeUndefined();
      expect(await answer(toolCall(1.5, 'search_reviews', args))).toBeUndefined();
      expect(tools.reads).toBe(3);
      // A new snapshot, or no budget: served by the SDK again.
      snapshot = Object.create(t.snapshot) as typeof snapshot;
      expect(await answer(toolCall(5, 'search_reviews', args))).toBe(await theirs(toolCall(5, 'search_reviews', args)));
      expect(tools.reads).toBe(4);
      budget = 0;
      await answer(toolCall(6, 'search_reviews', args));
      await answer(toolCall(7, 'search_reviews', args));
      expect(tools.reads).toBe(6);
    } finally {
      await calls.close();
    }
  });

  it('the transport binds its instance to 2026-07-28, and withdraws what the SDK refuses before any handler runs', async () => {
    const transport = new ModernDispatchTransport(MODERN_VERSION);
    const server = factory({ modernRevision: MODERN_VERSION });
    await server.connect(transport);
    const classification = { era: 'modern' as const, revision: MODERN_VERSION };
    try {
      expect(server.getNegotiatedProtocolVersion()).toBe(MODERN_VERSION);
      // No _meta envelope: the SDK's gate answers at once, with a status only its own transport knows.
      expect(await transport.dispatch(toolCall(3, 'get_business', {}, false), classification)).toBeUndefined();
      // A handler's own error is an answer, not a withdrawal.
      expect(await transport.dispatch(toolCall(4, 'no_such_tool', {}), classification)).toMatchObject({ id: 4, error: { code: -32602 } });
      expect(await transport.dispatch(toolCall(5, 'get_business', {}), classification)).toMatchObject({
        id: 5,
        result: { structuredContent: { business: { name: t.snapshot.view.business.name } } },
      });
    } finally {
      await server.close();
    }
    // Closed: nothing is served, so the caller leaves it to createMcpHandler.
    expect(await transport.dispatch(toolCall(6, 'get_business', {}), classification)).toBeUndefined();
  });
});
