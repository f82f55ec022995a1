import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startReplica, type Replica } from '../support/replica.js';
import { INITIALIZE, legacyHeaders, rpc } from './mcp-harness.js';

/**
 * Two `serve` processes on one SQLite database, as behind a load balancer without sticky routing
 * (contract §5): a session created on one process works on the other, and ended on one is gone on both.
 */
describe('MCP sessions across two server processes', () => {
  let dir: string;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'review-data-mcp-'));
    const env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`,
      DEMO_ON_EMPTY: 'true',
      LOG_LEVEL: 'warn',
      BASE_URL: 'http://reviews.example.test',
    };
    // One after the other: the first loads the demo, the second finds data and leaves it alone.
    replicas.push(await startReplica('a', env));
    replicas.push(await startReplica('b', env));
  }, 180_000);

  afterAll(async () => {
    for (const r of replicas) await r.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const post = (replica: Replica, body: unknown, headers: Record<string, string>) =>
    fetch(`${replica.origin}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });

  it('a session created on A is served by B, ended on B, and then unknown to A', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const init = await post(a, INITIALIZE, legacyHeaders());
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id')!;
    expect(sessionId).toBeTruthy();
    expect((await post(b, { jsonrpc: '2.0', method: 'notifications/initialized' }, legacyHeaders(sessionId))).status).toBe(202);

    const onB = await post(b, rpc(2, 'tools/call', { name: 'get_business', arguments: {} }), legacyHeaders(sessionId));
    expect(onB.status, a.output() + b.output()).toBe(200);
    const result = ((await onB.json()) as { result: { structuredContent: { business: { name: string } } } }).result;
    const doc = (await (await fetch(`${a.origin}/reviews.json`)).json()) as { business: { name: string } };
    expect(result.structuredContent.business.name).toBe(doc.business.name);

    const del = await fetch(`${b.origin}/mcp`, { method: 'DELETE', headers: legacyHeaders(sessionId) });
    expect(del.status).toBe(200);
    expect((await post(a, rpc(3, 'tools/list'), legacyHeaders(sessionId))).status).toBe(404);
    expect((await post(b, rpc(4, 'tools/list'), legacyHeaders(sessionId))).status).toBe(404);
  });

  it('shuts down cleanly with sessions open (SIGTERM exits 0)', async () => {
    const init = await post(replicas[1]!, INITIALIZE, legacyHeaders());
    expect(init.status).toBe(200);
    expect(await replicas[1]!.stop()).toBe(0);
    replicas.pop();
    // The session outlives the process that created it: the other replica still serves it.
    const sessionId = init.headers.get('mcp-session-id')!;
    expect((await post(replicas[0]!, rpc(5, 'ping'), legacyHeaders(sessionId))).status).toBe(200);
  });
});
