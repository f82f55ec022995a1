import { afterEach, describe, expect, it } from 'vitest';
import { createMcpTestApp, INITIALIZE, legacyHeaders, rpc, type McpTestApp } from './mcp-harness.js';

/** Idle expiry and the session bound (contract §5), with a clock the test moves by hand. */
describe('MCP sessions: idle expiry and bound', () => {
  let t: McpTestApp;
  afterEach(async () => t.close());

  let clock = Date.parse('2026-03-01T00:00:00Z');
  const now = () => clock;
  const advance = (seconds: number) => (clock += seconds * 1000);

  async function open(): Promise<string> {
    const r = await t.app.inject({ method: 'POST', url: '/mcp', headers: legacyHeaders(), payload: INITIALIZE });
    expect(r.statusCode).toBe(200);
    return String(r.headers['mcp-session-id']);
  }
  const ping = async (sessionId: string) =>
    (await t.app.inject({ method: 'POST', url: '/mcp', headers: legacyHeaders(sessionId), payload: rpc(9, 'ping') })).statusCode;
  const rows = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('mcp_sessions' as never)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a session idle for longer than the TTL is 404; use keeps it alive', async () => {
    t = await createMcpTestApp({ ttlSeconds: 100, now });
    const idle = await open();
    const busy = await open();
    for (let i = 0; i < 5; i++) {
      advance(40);
      expect(await ping(busy)).toBe(200);
    }
    // 200 s later: the idle one expired at 100 s, the busy one was used 0 s ago.
    expect(await ping(idle)).toBe(404);
    expect(await ping(busy)).toBe(200);
    advance(101);
    expect(await ping(busy)).toBe(404);
  });

  it('the sweep removes expired rows, so abandoned sessions never accumulate', async () => {
    t = await createMcpTestApp({ ttlSeconds: 60, now });
    for (let i = 0; i < 20; i++) await open();
    expect(await rows()).toBe(20);
    advance(30);
    expect(await t.mcp.sessions.sweep()).toBe(0);
    advance(31);
    expect(await t.mcp.sessions.sweep()).toBe(20);
    expect(await rows()).toBe(0);
  });

  it('creating a session beyond MCP_MAX_SESSIONS evicts the least recently used idle one', async () => {
    t = await createMcpTestApp({ maxSessions: 3, now });
    const a = await open();
    advance(1);
    const b = await open();
    advance(1);
    const c = await open();
    advance(400); // all three idle for more than the in-use window (5 min plus the last-use lag)
    expect(await ping(a)).toBe(200); // a is now in use
    const d = await open();
    expect(await rows()).toBe(3);
    expect(await ping(b)).toBe(404);
    for (const s of [a, c, d]) expect(await ping(s)).toBe(200);
  });

  it('never evicts a session in use: at the bound with every session active, initialize is a 503 with Retry-After', async () => {
    t = await createMcpTestApp({ maxSessions: 3, now });
    const live = [await open(), await open(), await open()];
    advance(60);
    const r = await t.app.inject({ method: 'POST', url: '/mcp', headers: legacyHeaders(), payload: INITIALIZE });
    expect(r.statusCode).toBe(503);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect(r.json()).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32000 } });
    expect(r.headers['mcp-session-id']).toBeUndefined();
    for (const s of live) expect(await ping(s)).toBe(200);
  });

  it('rate-limits new sessions per client address (MCP_SESSION_RATE_LIMIT): 429 with Retry-After, live sessions unharmed', async () => {
    t = await createMcpTestApp({ maxSessions: 50, now, limits: { sessionRateLimit: 3 } });
    const mine = [await open(), await open(), await open()];
    const r = await t.app.inject({ method: 'POST', url: '/mcp', headers: legacyHeaders(), payload: INITIALIZE });
    expect(r.statusCode).toBe(429);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect(r.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining('Too many new sessions') } });
    const other = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: legacyHeaders(),
      payload: INITIALIZE,
      remoteAddress: '203.0.113.9',
    });
    expect(other.statusCode).toBe(200);
    for (const s of mine) expect(await ping(s)).toBe(200);
    advance(20); // the bucket refills: 3 a minute
    expect((await t.app.inject({ method: 'POST', url: '/mcp', headers: legacyHeaders(), payload: INITIALIZE })).statusCode).toBe(200);
  });
});
