import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { terminateConnections, type TestDatabase } from '../support/postgres.js';
import { describePostgres } from '../support/postgres-suite.js';
import { ensureBuilt, runCli, startReplica, type Replica } from '../support/replica.js';
import { startSubscriber, type TestSubscriber } from '../support/subscriber.js';
import { createTestPki } from '../support/test-ca.js';
import { businessDoc, datasetFile, importRecord } from './dataset.js';
import { eventually } from '../support/eventually.js';

/**
 * Scale-out end to end: three `review-data serve` processes on one PostgreSQL database, real HTTPS
 * subscribers, the CLI writing from outside. Tests run in order and share the replicas.
 */

const BASE_URL = 'https://reviews.example.test';
const TOPICS = ['/feed.xml', '/api/feed.json', '/reviews.json'];
const SUBSCRIBERS = 6;

const sha = (b: ArrayBuffer | string) =>
  createHash('sha256')
    .update(typeof b === 'string' ? b : Buffer.from(b))
    .digest('hex');

await describePostgres('three replicas on one PostgreSQL', ({ adminUrl, freshDatabase }) => {
  let database: TestDatabase;
  let dir: string;
  let env: Record<string, string>;
  let subscriber: TestSubscriber;
  let replicas: Replica[] = [];
  let check: pg.Pool;
  let imports = 0;

  const alive = () => replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
  const etag = async (r: Replica, p = '/reviews.json') => (await fetch(r.origin + p, { method: 'HEAD' })).headers.get('etag');
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await check.query<R>(text, values)).rows;

  /** Imports one more review through the CLI (another process) and returns when the CLI exits. */
  async function importChange(): Promise<number> {
    imports++;
    const file = path.join(dir, `change-${imports}.json`);
    await fs.writeFile(file, JSON.stringify([importRecord(`change-${imports}`, `Change number ${imports}: quick and tidy.`)]));
    const r = await runCli(['import', file], env);
    expect(r.code, r.stderr).toBe(0);
    return Date.now();
  }

  beforeAll(async () => {
    await ensureBuilt();
    database = await freshDatabase();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-scale-'));
    const pki = createTestPki();
    await fs.writeFile(path.join(dir, 'ca.pem'), pki.caPem);
    env = {
      DATABASE_URL: database.url,
      BASE_URL,
      DEMO_ON_EMPTY: 'false',
      LOG_LEVEL: 'warn',
      WEBSUB_CA_FILE: path.join(dir, 'ca.pem'),
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      // Short timeout: a claim lasts timeout + 5 s, so a dead replica's claims lapse in 7 s.
      WEBSUB_TIMEOUT_MS: '2000',
      WEBSUB_RETRY_DELAYS: '1,1',
    };
    await fs.writeFile(path.join(dir, 'dataset.json'), JSON.stringify(datasetFile(businessDoc(), 12)));
    const first = await runCli(['import', path.join(dir, 'dataset.json')], env);
    expect(first.code, first.stderr).toBe(0);
    check = new pg.Pool({ connectionString: database.url, max: 2 });
    check.on('error', () => {});
    subscriber = await startSubscriber(pki);
    // allSettled: when one fails to start, the others are still known to afterAll and get stopped.
    const started = await Promise.allSettled(['a', 'b', 'c'].map((n) => startReplica(n, env)));
    replicas = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
  }, 180_000);

  afterAll(async () => {
    subscriber?.release();
    await Promise.allSettled(alive().map((r) => r.stop(10_000)));
    await Promise.allSettled(replicas.map((r) => r.kill9()));
    await subscriber?.close();
    await check?.end().catch(() => {});
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('serves identical bytes and ETags from every replica', async () => {
    // A cold start: each replica renders its first insights (a 503 "being computed" after
    // COLD_START_WAIT_MS meanwhile, contract §3); compared once all three have them.
    await eventually('every replica has rendered its insights', 90_000, async () => {
      const statuses = await Promise.all(
        replicas.map(async (r) => {
          const res = await fetch(r.origin + '/insights.json', { headers: { 'accept-encoding': 'identity' } });
          await res.arrayBuffer();
          return res.status;
        }),
      );
      return statuses.every((status) => status === 200);
    });
    for (const p of [...TOPICS, '/insights.json', '/api/reviews/search?rating=5&limit=5', '/.well-known/openapi.json']) {
      const seen = await Promise.all(
        replicas.map(async (r) => {
          const res = await fetch(r.origin + p, { headers: { 'accept-encoding': 'identity' } });
          expect(res.status, `${r.name} ${p}`).toBe(200);
          return `${res.headers.get('etag')} ${sha(await res.arrayBuffer())}`;
        }),
      );
      expect(new Set(seen).size, `${p}: ${seen.join(' | ')}`).toBe(1);
    }
  }, 120_000);

  it('takes subscriptions on any replica; a CLI import reaches all three within 2 s; each subscriber gets exactly one delivery', async () => {
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const form = new URLSearchParams({
        'hub.mode': 'subscribe',
        'hub.topic': BASE_URL + TOPICS[i % TOPICS.length],
        'hub.callback': subscriber.callback(`s${i}`),
        ...(i % 2 === 0 ? { 'hub.secret': `secret-${i}` } : {}),
      });
      const res = await fetch(`${replicas[i % replicas.length]!.origin}/api/websub/hub`, { method: 'POST', body: form });
      expect(res.status).toBe(202);
    }
    await eventually('every subscription verified', 15_000, async () => {
      const [row] = await query<{ n: number }>('select count(*)::int as n from websub_subscriptions');
      return row?.n === SUBSCRIBERS;
    });
    expect(subscriber.verifications).toHaveLength(SUBSCRIBERS);

    const before = await etag(replicas[0]!);
    const done = await importChange();
    const lags = await Promise.all(
      replicas.map((r) =>
        eventually(`${r.name} to serve the import`, 5000, async () => ((await etag(r)) !== before ? Date.now() - done : false)),
      ),
    );
    console.info(`CLI import -> replicas serving it: ${lags.join(', ')} ms`);
    expect(Math.max(...lags), `propagation lags ${lags.join(', ')} ms`).toBeLessThan(2000);
    expect(new Set(await Promise.all(replicas.map((r) => etag(r)))).size).toBe(1);

    await eventually('a delivery to every subscriber', 15_000, async () =>
      Array.from({ length: SUBSCRIBERS }, (_, i) => subscriber.deliveriesTo(`s${i}`).length).every((n) => n >= 1),
    );
    await new Promise((r) => setTimeout(r, 2500)); // room for a duplicate to show up, were there one
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const got = subscriber.deliveriesTo(`s${i}`);
      expect(got, `deliveries to s${i}`).toHaveLength(1);
      const topic = TOPICS[i % TOPICS.length]!;
      const served = await fetch(replicas[0]!.origin + topic, { headers: { 'accept-encoding': 'identity' } });
      expect(got[0]!.body).toBe(await served.text());
      expect(got[0]!.contentType).toBe(served.headers.get('content-type'));
      expect(got[0]!.signature === undefined).toBe(i % 2 === 1);
    }
  });

  it('kill -9 of the replica holding a delivery: another replica completes it after the lease', async () => {
    subscriber.hold('s0');
    const counts = Array.from({ length: SUBSCRIBERS }, (_, i) => subscriber.deliveriesTo(`s${i}`).length);
    await importChange();
    await eventually('the held delivery to arrive', 10_000, async () => subscriber.deliveriesTo('s0').length > counts[0]!);
    const [claim] = await query<{ claimed_by: string | null }>(
      'select d.claimed_by from websub_deliveries d join websub_subscriptions s on s.id = d.subscription_id where s.callback = $1',
      [subscriber.callback('s0')],
    );
    // Worker ids are host:pid:random (websub/index.ts).
    const pid = Number(claim?.claimed_by?.split(':')[1]);
    const holder = replicas.find((r) => r.pid === pid);
    expect(holder, `claim ${claim?.claimed_by} belongs to a replica`).toBeDefined();
    await holder!.kill9();
    const killedAt = Date.now();
    subscriber.release();

    await eventually('another replica to redeliver', 20_000, async () => subscriber.deliveriesTo('s0').length === counts[0]! + 2);
    const redelivered = subscriber.deliveriesTo('s0').at(-1)!;
    console.info(`kill -9 of ${holder!.name} -> redelivered by another replica after ${redelivered.at - killedAt} ms`);
    expect(redelivered.body).toBe(subscriber.deliveriesTo('s0').at(-2)!.body);
    expect(redelivered.at - killedAt).toBeGreaterThan(1000); // after the lease, not at once
    await eventually(
      'the outbox to empty',
      10_000,
      async () => (await query<{ n: number }>('select count(*)::int as n from websub_deliveries'))[0]?.n === 0,
    );
    for (let i = 1; i < SUBSCRIBERS; i++) {
      // At least once across a crash: one that the dead replica sent but had not yet recorded may repeat.
      const n = subscriber.deliveriesTo(`s${i}`).length - counts[i]!;
      expect(n, `deliveries to s${i}`).toBeGreaterThanOrEqual(1);
      expect(n, `deliveries to s${i}`).toBeLessThanOrEqual(2);
    }
  });

  it('survives dropped PostgreSQL connections without restarting the replicas', async () => {
    const survivors = alive();
    expect(survivors.length).toBeGreaterThanOrEqual(2);
    expect(await terminateConnections(adminUrl, database.name)).toBeGreaterThan(0);
    // The snapshot keeps serving while the pool and the listener reconnect.
    for (const r of survivors) expect((await fetch(r.origin + '/reviews.json')).status).toBe(200);
    const before = await etag(survivors[0]!);
    const counts = Array.from({ length: SUBSCRIBERS }, (_, i) => subscriber.deliveriesTo(`s${i}`).length);
    const done = await importChange();
    const lags = await Promise.all(
      survivors.map((r) =>
        eventually(`${r.name} to serve the import`, 10_000, async () => ((await etag(r)) !== before ? Date.now() - done : false)),
      ),
    );
    console.info(`after pg_terminate_backend, CLI import -> replicas serving it: ${lags.join(', ')} ms`);
    expect(Math.max(...lags), `propagation lags ${lags.join(', ')} ms`).toBeLessThan(2000);
    await eventually('deliveries after the reconnect', 15_000, async () =>
      counts.every((n, i) => subscriber.deliveriesTo(`s${i}`).length > n),
    );
  });

  it('accepts an MCP session on a replica other than the one that created it', async () => {
    const [a, b] = alive();
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(`${a!.origin}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'scale-test', version: '1.0.0' } },
      }),
    });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id');
    expect(session).toBeTruthy();
    const version = ((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion;
    const withSession = { ...headers, 'mcp-session-id': session!, 'mcp-protocol-version': version };
    const call = await fetch(`${b!.origin}/mcp`, {
      method: 'POST',
      headers: withSession,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_business', arguments: {} } }),
    });
    expect(call.status).toBe(200);
    const body = (await call.json()) as { result?: { structuredContent?: { business?: { name?: string } } } };
    expect(body.result?.structuredContent?.business?.name).toBe(businessDoc().name);
    expect((await fetch(`${b!.origin}/mcp`, { method: 'DELETE', headers: withSession })).status).toBeLessThan(300);
    const after = await fetch(`${a!.origin}/mcp`, {
      method: 'POST',
      headers: withSession,
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }),
    });
    expect(after.status).toBe(404);
  });

  it('shuts down gracefully on SIGTERM: exit 0, its claims released, its connections closed', async () => {
    const r = alive()[0]!;
    expect(await r.stop(20_000)).toBe(0);
    const workers = await query<{ n: number }>(
      "select count(*)::int as n from websub_deliveries where claimed_by like '%:' || $1 || ':%'",
      [String(r.pid)],
    );
    expect(workers[0]?.n).toBe(0);
  });
});
