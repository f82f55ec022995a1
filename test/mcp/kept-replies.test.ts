import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeptReplies, replyKey } from '../../src/mcp/kept-replies.js';
import { createLegacyHandler, type LegacyAnswer, type LegacyHttpRequest } from '../../src/mcp/legacy-handler.js';
import { createServerFactory } from '../../src/mcp/server-factory.js';
import { createSessionManager, type SessionManager } from '../../src/mcp/sessions.js';
import type { Snapshot } from '../../src/snapshot/snapshot.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createMcpSessionStore } from '../../src/storage/mcp-session-store.js';
import { countingServerFactory, createMcpTestApp, legacyHeaders, INITIALIZE, LEGACY_VERSION, rpc, type McpTestApp } from './mcp-harness.js';

const call = (id: string | number, args: Record<string, unknown> = { rating: 5, limit: 2 }, name = 'search_reviews') =>
  rpc(id as number, 'tools/call', { name, arguments: args });

const text = (answer: LegacyAnswer) =>
  answer.body === null ? null : Buffer.isBuffer(answer.body) ? answer.body.toString('utf8') : answer.body;

describe('replyKey', () => {
  it('keys a tools/call by its params, only in the frame every call shares', () => {
    expect(replyKey(call(1))).toBe(JSON.stringify(call(1).params));
    expect(replyKey(call('a'))).toBe(replyKey(call(2)));
    expect(replyKey({ ...call(1), extra: true })).toBeUndefined();
    expect(replyKey(call(1.5))).toBeUndefined();
    expect(replyKey(call(2 ** 60))).toBeUndefined();
    expect(replyKey(rpc(1, 'tools/list'))).toBeUndefined();
    expect(replyKey({ ...call(1), jsonrpc: '1.0' })).toBeUndefined();
    expect(replyKey([call(1)])).toBeUndefined();
  });

  it('refuses params whose JSON would not tell them apart from others (-0, non-finite numbers)', () => {
    expect(
      replyKey(JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_reviews","arguments":{"limit":-0}}}')),
    ).toBeUndefined();
    expect(
      replyKey(JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_reviews","arguments":{"limit":1e400}}}')),
    ).toBeUndefined();
    expect(
      replyKey(
        JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_reviews","arguments":{"fields":[1,-1e999]}}}'),
      ),
    ).toBeUndefined();
    expect(
      replyKey(JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_reviews","arguments":{"limit":0}}}')),
    ).toBe('{"name":"search_reviews","arguments":{"limit":0}}');
  });
});

describe('kept replies', () => {
  let t: McpTestApp;
  beforeAll(async () => {
    t = await createMcpTestApp();
  });
  afterAll(async () => t.close());

  /** What the SDK answered, as its bytes end: `…,"id":<id>}`. */
  const sdkReply = (id: string | number, body = 'R') => `{"result":"${body}","jsonrpc":"2.0","id":${JSON.stringify(id)}}`;

  it('a scope never gets the reply kept for another one (eras, negotiated versions)', async () => {
    const replies = createKeptReplies({ snapshots: { current: () => t.snapshot }, budget: () => 1 << 20 });
    let runs = 0;
    const answer = (id: string | number, body: string) => () => (runs++, Promise.resolve(sdkReply(id, body)));
    await replies.reply('2025-11-25', call(1), answer(1, 'A'));
    await replies.reply('2025-11-25', call(2), answer(2, 'A'));
    const hit = await replies.reply('2025-11-25', call('z'), answer('z', 'A'));
    expect(String(hit)).toBe(sdkReply('z', 'A'));
    expect(runs).toBe(2);
    expect(String(await replies.reply('2025-06-18', call(3), answer(3, 'B')))).toBe(sdkReply(3, 'B'));
    expect(String(await replies.reply('2026-07-28', call(4), answer(4, 'C')))).toBe(sdkReply(4, 'C'));
    expect(runs).toBe(4);
  });

  it('keeps only a reply that ends with its own id, only within one snapshot, and nothing without a budget', async () => {
    let snapshot: Snapshot = t.snapshot;
    let budget = 1 << 20;
    const replies = createKeptReplies({ snapshots: { current: () => snapshot }, budget: () => budget });
    let runs = 0;
    const run = (reply: string | undefined) => () => (runs++, Promise.resolve(reply));
    // Not its own id at the end: never kept.
    for (const id of [1, 2, 3]) await replies.reply('s', call(id), run(sdkReply(99)));
    expect(runs).toBe(3);
    // Left to another handler: passed on, never kept.
    for (const id of [1, 2]) expect(await replies.reply('s', call(id, { limit: 3 }), run(undefined))).toBeUndefined();
    expect(runs).toBe(5);
    // The snapshot changes while the SDK answers: not kept for either.
    for (const id of [1, 2])
      await replies.reply('s', call(id, { limit: 4 }), () => {
        runs++;
        snapshot = Object.create(t.snapshot) as Snapshot;
        return Promise.resolve(sdkReply(id));
      });
    await replies.reply('s', call(3, { limit: 4 }), run(sdkReply(3)));
    expect(runs).toBe(8);
    budget = 0;
    for (const id of [1, 2, 3]) await replies.reply('s', call(id, { limit: 5 }), run(sdkReply(id)));
    expect(runs).toBe(11);
  });
});

/**
 * 2025-era session tool calls with kept replies, against the same handler without them: the same bytes
 * for every request, the session checked first, the batch and answer limits as before.
 */
describe('MCP 2025-era tool calls with kept replies', () => {
  let t: McpTestApp;
  let database: DatabaseHandle;
  let sessions: SessionManager;
  let clock = Date.parse('2026-01-01T00:00:00Z');
  let snapshot: Snapshot;
  const tools = { reads: 0 };
  beforeAll(async () => {
    t = await createMcpTestApp();
    snapshot = t.snapshot;
    database = await openDatabase('sqlite::memory:');
    sessions = createSessionManager({
      store: createMcpSessionStore(database.db),
      ttlSeconds: 60,
      maxSessions: 100,
      sweepIntervalMs: 0,
      now: () => clock,
    });
  });
  afterAll(async () => {
    await database.close();
    await t.close();
  });

  function handlers(maxAnswerBytes = 1 << 22) {
    const counted = countingServerFactory(t.urls, () => snapshot, tools);
    const plainFactory = createServerFactory({ snapshots: { current: () => snapshot }, urls: t.urls });
    const limits = { maxBatch: 20, maxAnswerBytes };
    const kept = createLegacyHandler({
      factory: () => counted(),
      sessions,
      limits,
      replies: createKeptReplies({ snapshots: { current: () => snapshot }, budget: () => 1 << 20 }),
    });
    const plain = createLegacyHandler({ factory: () => plainFactory(), sessions, limits });
    // Making the shared instance read it once (its instructions); from now on, only tools do.
    tools.reads = 0;
    return { kept, plain, close: () => Promise.all([kept.close(), plain.close()]) };
  }

  const request = (headers: Record<string, string>): LegacyHttpRequest => ({
    method: 'POST',
    ip: '127.0.0.1',
    header: (name) => headers[name],
    web: () => {
      throw new Error('not needed after initialize');
    },
  });

  async function session(version = LEGACY_VERSION) {
    const created = await sessions.create(version);
    if (!created.ok) throw new Error(created.reason);
    return created.session.id;
  }

  it('a repeated call gets the bytes the SDK gives for it, under its own id, without the SDK running again', async () => {
    const { kept, plain, close } = handlers();
    try {
      const id = await session();
      const headers = legacyHeaders(id);
      for (const rid of [1, 'x', 2, 3]) {
        const ours = await kept.handle(request(headers), call(rid));
        const theirs = await plain.handle(request(headers), call(rid));
        expect(ours.status).toBe(200);
        expect({ ...ours, body: text(ours) }).toEqual({ ...theirs, body: text(theirs) });
      }
      expect(tools.reads).toBe(2);
      // Another session of the same version: its own Mcp-Session-Id, the same reply bytes.
      const other = await session();
      const ours = await kept.handle(request(legacyHeaders(other)), call(4));
      expect(ours.sessionId).toBe(other);
      expect(text(ours)).toBe(text(await plain.handle(request(legacyHeaders(other)), call(4))));
      expect(tools.reads).toBe(2);
      // A session of another negotiated version is another scope: served by the SDK.
      const older = await session('2025-06-18');
      const olderAnswer = await kept.handle(request(legacyHeaders(older, '2025-06-18')), call(5));
      expect(text(olderAnswer)).toBe(text(await plain.handle(request(legacyHeaders(older, '2025-06-18')), call(5))));
      expect(tools.reads).toBe(3);
      // A new snapshot: served by the SDK again.
      snapshot = Object.create(t.snapshot) as Snapshot;
      expect(text(await kept.handle(request(headers), call(6)))).toBe(text(await plain.handle(request(headers), call(6))));
      expect(tools.reads).toBe(4);
    } finally {
      snapshot = t.snapshot;
      await close();
    }
  });

  it('the session is checked before a kept reply: missing 400, unknown, ended or expired 404, another version 400', async () => {
    const { kept, plain, close } = handlers();
    try {
      const id = await session();
      for (const rid of [1, 2, 3]) await kept.handle(request(legacyHeaders(id)), call(rid));
      const reads = tools.reads;
      const cases: Record<string, string>[] = [
        { ...legacyHeaders(), 'mcp-protocol-version': LEGACY_VERSION },
        legacyHeaders('A'.repeat(43)),
        legacyHeaders(id, '2025-06-18'),
      ];
      for (const headers of cases) {
        const ours = await kept.handle(request(headers), call(7));
        expect([400, 404]).toContain(ours.status);
        expect(ours).toEqual(await plain.handle(request(headers), call(7)));
      }
      const ended = await session();
      await kept.handle(request(legacyHeaders(ended)), call(8));
      await sessions.end(ended);
      expect((await kept.handle(request(legacyHeaders(ended)), call(9))).status).toBe(404);
      // Idle past the TTL (60 s): expired, though its reply is kept.
      clock += 61_000;
      const expired = await kept.handle(request(legacyHeaders(id)), call(10));
      expect(expired.status).toBe(404);
      expect(JSON.parse(text(expired)!)).toMatchObject({ id: 10, error: { code: -32001 } });
      expect(tools.reads).toBe(reads);
    } finally {
      await close();
    }
  });

  it('batches of kept replies keep MCP_MAX_BATCH and MCP_MAX_ANSWER_BYTES as before', async () => {
    const id = await session();
    const headers = legacyHeaders(id);
    const first = handlers();
    const one = await first.kept.handle(request(headers), call(1));
    await first.close();
    // Room for one reply: the next ones in the batch get -32005 instead of running.
    const { kept, plain, close } = handlers(text(one)!.length);
    try {
      await kept.handle(request(headers), call(1));
      await kept.handle(request(headers), call(2));
      const batch = [call(11), call(12), { jsonrpc: '2.0', method: 'notifications/initialized' }, call(13, { limit: 1 }), rpc(14, 'ping')];
      const ours = await kept.handle(request(headers), batch);
      expect(text(ours)).toBe(text(await plain.handle(request(headers), batch)));
      const replies = JSON.parse(text(ours)!) as { id: number; error?: { code: number } }[];
      expect(replies.map((r) => [r.id, r.error?.code])).toEqual([
        [11, undefined],
        [12, -32005],
        [13, -32005],
        [14, -32005],
      ]);
      const tooMany = Array.from({ length: 21 }, (_, i) => call(100 + i));
      const refused = await kept.handle(request(headers), tooMany);
      expect(refused.status).toBe(400);
      expect(refused).toEqual(await plain.handle(request(headers), tooMany));
    } finally {
      await close();
    }
  });
});

describe('MCP 2025-era tool calls with kept replies, over HTTP', () => {
  let t: McpTestApp;
  beforeAll(async () => {
    t = await createMcpTestApp();
  });
  afterAll(async () => t.close());

  const post = (body: unknown, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/mcp', headers, payload: JSON.stringify(body) });

  async function open(version = LEGACY_VERSION) {
    const init = await post({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: version } }, legacyHeaders());
    expect(init.statusCode).toBe(200);
    return String(init.headers['mcp-session-id']);
  }

  it('each session gets its own header and the same bytes but for its id; an ended session gets 404', async () => {
    const [a, b] = [await open(), await open()];
    const bodies: string[] = [];
    for (const [rid, sid] of [
      [1, a],
      [2, b],
      [3, a],
      [4, b],
    ] as const) {
      const r = await post(call(rid), legacyHeaders(sid));
      expect(r.statusCode).toBe(200);
      expect(r.headers['mcp-session-id']).toBe(sid);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.headers['cache-control']).toBe('no-store');
      bodies.push(r.body.replace(/,"id":\d+}$/, ''));
      expect(r.body.endsWith(`,"id":${rid}}`)).toBe(true);
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(`${bodies[0]}}`)).toMatchObject({ result: { structuredContent: { count: 2 } } });
    expect((await t.app.inject({ method: 'DELETE', url: '/mcp', headers: legacyHeaders(a) })).statusCode).toBe(200);
    const gone = await post(call(5), legacyHeaders(a));
    expect(gone.statusCode).toBe(404);
    expect((await post(call(6), legacyHeaders(b))).statusCode).toBe(200);
  });
});

describe('MCP 2025-era notifications on the shared instance', () => {
  let t: McpTestApp;
  beforeAll(async () => {
    t = await createMcpTestApp();
  });
  afterAll(async () => t.close());

  it("a cancellation from one session never aborts another session's request (ids are private to the shared instance)", async () => {
    const database = await openDatabase('sqlite::memory:');
    const sessions = createSessionManager({
      store: createMcpSessionStore(database.db),
      ttlSeconds: 60,
      maxSessions: 10,
      sweepIntervalMs: 0,
    });
    // A cold start's snapshot: a tool call waits until the first slow documents are rendered.
    let release: (s: Snapshot) => void = () => {};
    const waiting = new Promise<Snapshot>((resolve) => (release = resolve));
    const cold = Object.assign(Object.create(t.snapshot) as Snapshot, { missing: new Set(['insights.json']) });
    const factory = createServerFactory({ snapshots: { current: () => cold, rendered: () => waiting }, urls: t.urls });
    const handler = createLegacyHandler({ factory: () => factory(), sessions, limits: { maxBatch: 20, maxAnswerBytes: 1 << 22 } });
    const request = (sessionId: string): LegacyHttpRequest => ({
      method: 'POST',
      header: (name) => legacyHeaders(sessionId)[name],
      web: () => {
        throw new Error('not needed');
      },
    });
    try {
      const [a, b] = await Promise.all([sessions.create(LEGACY_VERSION), sessions.create(LEGACY_VERSION)]);
      if (!a.ok || !b.ok) throw new Error('no session');
      // A's call is the shared instance's first request; B names that id in a cancellation meanwhile.
      const pending = handler.handle(request(a.session.id), call(1, {}, 'get_business'));
      const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'not mine' } };
      expect((await handler.handle(request(b.session.id), cancel)).status).toBe(202);
      release(t.snapshot);
      const answer = await pending;
      expect(answer.status).toBe(200);
      expect(JSON.parse(text(answer)!)).toMatchObject({ id: 1, result: { structuredContent: { business: {} } } });
    } finally {
      await handler.close();
      await database.close();
    }
  });
});
