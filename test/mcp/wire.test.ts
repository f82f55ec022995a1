import { afterEach, describe, expect, it } from 'vitest';
import { createMcpTestApp, INITIALIZE, legacyHeaders, LEGACY_VERSION, rpc, type McpTestApp } from './mcp-harness.js';

/** Raw streamable HTTP (MCP 2025-11-25 §Transports) through `inject()`: status codes and headers. */
describe('MCP wire: legacy sessions', () => {
  let t: McpTestApp;
  afterEach(async () => t.close());

  async function open(app: McpTestApp, version = LEGACY_VERSION) {
    const init = await app.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: legacyHeaders(),
      payload: { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: version } },
    });
    expect(init.statusCode).toBe(200);
    const sessionId = String(init.headers['mcp-session-id']);
    const negotiated = (init.json() as { result: { protocolVersion: string } }).result.protocolVersion;
    return { init, sessionId, negotiated };
  }

  const post = (app: McpTestApp, body: unknown, headers: Record<string, string>) =>
    app.app.inject({ method: 'POST', url: '/mcp', headers, payload: JSON.stringify(body) });

  it('initialize answers with a visible-ASCII session id, the negotiated version and instructions', async () => {
    t = await createMcpTestApp();
    const { init, sessionId, negotiated } = await open(t);
    expect(sessionId).toMatch(/^[\x21-\x7e]{43}$/);
    expect(negotiated).toBe(LEGACY_VERSION);
    const result = (init.json() as { result: { capabilities: object; instructions: string; serverInfo: { name: string } } }).result;
    expect(result.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(result.instructions).toContain('search_reviews');
    expect(result.serverInfo.name).toBe('review-data-service');
    // CORS: a browser client can read the session id (contract §4).
    expect(init.headers['access-control-allow-origin']).toBe('*');
    expect(String(init.headers['access-control-expose-headers'])).toMatch(/Mcp-Session-Id/i);
  });

  it('negotiates: a supported older version is kept, an unknown one gets the latest', async () => {
    t = await createMcpTestApp();
    expect((await open(t, '2025-03-26')).negotiated).toBe('2025-03-26');
    expect((await open(t, '2024-11-05')).negotiated).toBe('2024-11-05');
    expect((await open(t, '1999-01-01')).negotiated).toBe(LEGACY_VERSION);
  });

  it('serves a session: notification 202, tools/list 200 with the session header echoed', async () => {
    t = await createMcpTestApp();
    const { sessionId } = await open(t);
    const note = await post(t, { jsonrpc: '2.0', method: 'notifications/initialized' }, legacyHeaders(sessionId));
    expect(note.statusCode).toBe(202);
    const list = await post(t, rpc(2, 'tools/list'), legacyHeaders(sessionId));
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toMatch(/^application\/json/);
    expect(list.headers['mcp-session-id']).toBe(sessionId);
    expect((list.json() as { result: { tools: unknown[] } }).result.tools).toHaveLength(5);
  });

  it('a request without Mcp-Session-Id is 400; an unknown one is 404', async () => {
    t = await createMcpTestApp();
    const missing = await post(t, rpc(2, 'tools/list'), { ...legacyHeaders(), 'mcp-protocol-version': LEGACY_VERSION });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32000 } });
    const unknown = await post(t, rpc(3, 'tools/list'), legacyHeaders('no-such-session'));
    expect(unknown.statusCode).toBe(404);
    const wellFormedUnknown = await post(t, rpc(4, 'tools/list'), legacyHeaders('A'.repeat(43)));
    expect(wellFormedUnknown.statusCode).toBe(404);
    expect(wellFormedUnknown.json()).toMatchObject({ error: { code: -32001 } });
  });

  it('DELETE ends the session: 200, then 404 for every method', async () => {
    t = await createMcpTestApp();
    const { sessionId } = await open(t);
    const del = await t.app.inject({ method: 'DELETE', url: '/mcp', headers: legacyHeaders(sessionId) });
    expect(del.statusCode).toBe(200);
    expect((await post(t, rpc(2, 'tools/list'), legacyHeaders(sessionId))).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/mcp', headers: legacyHeaders(sessionId) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/mcp' })).statusCode).toBe(400);
  });

  it('checks MCP-Protocol-Version: another version than negotiated is 400, none means the negotiated one', async () => {
    t = await createMcpTestApp();
    const { sessionId } = await open(t, '2025-06-18');
    expect((await post(t, rpc(2, 'ping'), legacyHeaders(sessionId, '2025-06-18'))).statusCode).toBe(200);
    expect((await post(t, rpc(3, 'ping'), legacyHeaders(sessionId, '2025-11-25'))).statusCode).toBe(400);
    expect((await post(t, rpc(4, 'ping'), legacyHeaders(sessionId, 'garbage'))).statusCode).toBe(400);
    const { 'mcp-protocol-version': _omitted, ...noVersion } = legacyHeaders(sessionId);
    expect((await post(t, rpc(5, 'ping'), noVersion)).statusCode).toBe(200);
  });

  it('GET is 405 (no server-initiated stream) once the session is checked; other methods 405', async () => {
    t = await createMcpTestApp();
    const { sessionId } = await open(t);
    const get = await t.app.inject({ method: 'GET', url: '/mcp', headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('GET, POST, DELETE');
    expect((await t.app.inject({ method: 'GET', url: '/mcp', headers: { accept: 'text/event-stream' } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'PUT', url: '/mcp', headers: legacyHeaders(sessionId), payload: '{}' })).statusCode).toBe(405);
  });

  it('rejects bodies that are not JSON-RPC with JSON-RPC errors, never 5xx', async () => {
    t = await createMcpTestApp();
    const parse = await t.app.inject({ method: 'POST', url: '/mcp', headers: legacyHeaders(), payload: '{not json' });
    expect(parse.statusCode).toBe(400);
    expect(parse.json()).toMatchObject({ error: { code: -32700 } });
    const type = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...legacyHeaders(), 'content-type': 'text/plain' },
      payload: '{}',
    });
    expect(type.statusCode).toBe(415);
    const accept = await post(t, INITIALIZE, { ...legacyHeaders(), accept: 'application/json' });
    expect(accept.statusCode).toBe(406);
    for (const body of [[], 42, null, { jsonrpc: '2.0' }, [INITIALIZE, INITIALIZE]]) {
      const r = await post(t, body, legacyHeaders());
      expect(r.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(r.statusCode, JSON.stringify(body)).toBeLessThan(500);
    }
  });

  it('an unknown tool is JSON-RPC error -32602', async () => {
    t = await createMcpTestApp();
    const { sessionId } = await open(t);
    const r = await post(t, rpc(2, 'tools/call', { name: 'drop_all_reviews', arguments: {} }), legacyHeaders(sessionId));
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  it('CORS preflight on /mcp allows the MCP headers', async () => {
    t = await createMcpTestApp();
    const r = await t.app.inject({
      method: 'OPTIONS',
      url: '/mcp',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-session-id, mcp-protocol-version',
      },
    });
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('*');
  });
});
