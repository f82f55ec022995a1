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

  it('creating a session beyond MCP_MAX_SESSIONS evicts the least recently used', async () => {
    t = await createMcpTestApp({ maxSessions: 3, now });
    const a = await open();
    advance(1);
    const b = await open();
    advance(1);
    const c = await open();
    advance(100);
    expect(await ping(a)).toBe(200); // a is now the most recently used
    const d = await open();
    expect(await rows()).toBe(3);
    expect(await ping(b)).toBe(404);
    for (const s of [a, c, d]) expect(await ping(s)).toBe(200);
  });
});
