import http from 'node:http';
import net from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createApp } from '../../src/http/app.js';
import { datasetRenderer } from '../../src/snapshot/renderers/dataset.js';
import { buildSnapshot, type Snapshot } from '../../src/snapshot/snapshot.js';
import { fixtureState } from '../support/fixture.js';

/**
 * What one client can make the server hold and spend, over real sockets: a connection that pipelines
 * requests for large answers and never reads them holds one answer's worth of memory, not one per
 * request, and is closed once its answer stops moving; answers that resolve to the same reviews share
 * their bytes, so distinct old dates cost neither a copy nor a compression each.
 */
const urls = createServiceUrls('http://127.0.0.1');
// 6,000 published reviews, dated from 2025 on: a since answer for any earlier date is all of them, 2.4 MB.
let snapshot: Snapshot;
let app: FastifyInstance;
let port: number;
const WRITE_TIMEOUT_MS = 1500;

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Off-heap bytes held by this process (every answer's buffer is there), after a full collection. */
async function heldBytes(): Promise<number> {
  await new Promise((r) => setImmediate(r));
  collectGarbage();
  return process.memoryUsage().arrayBuffers;
}

const oldDate = (i: number) => new Date(Date.UTC(1900, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - started }));
    });
    req.on('error', reject);
  });
}

beforeAll(async () => {
  snapshot = (await buildSnapshot(fixtureState({ count: 6000 }), urls, [datasetRenderer])).snapshot;
  app = await createApp({ snapshots: { current: () => snapshot }, urls, limits: { writeTimeoutMs: WRITE_TIMEOUT_MS } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await app.close();
});

describe('a client that pipelines large answers and never reads them', () => {
  it('holds one answer in flight, not one per request, and is cut off once its answer stops moving', async () => {
    const one = await get(`/api/reviews/since/${oldDate(0)}`);
    expect(one.bytes).toBeGreaterThan(2_000_000);
    const before = await heldBytes();

    const socket = net.connect(port, '127.0.0.1');
    socket.pause(); // never reads
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // 100 distinct dates, each its own request: about 6 KB of requests for 240 MB of answers.
    socket.write(Array.from({ length: 100 }, (_, i) => `GET /api/reviews/since/${oldDate(i)} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
    await new Promise((r) => setTimeout(r, 500));

    // Other clients are served meanwhile, at once.
    expect((await get('/healthz')).status).toBe(200);
    const held = (await heldBytes()) - before;
    expect(held, `the stalled connection holds ${held} bytes`).toBeLessThan(3 * one.bytes);

    // Its answer makes no progress: the server closes the connection, and what it held goes.
    const connections = () => new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)));
    expect(await connections()).toBe(1);
    const deadline = performance.now() + 4 * WRITE_TIMEOUT_MS + 2000;
    while ((await connections()) > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await connections(), 'the server closed the stalled connection').toBe(0);
    socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect((await heldBytes()) - before).toBeLessThan(one.bytes);
  });

  it('gets every pipelined answer, in order, once it reads', async () => {
    const dates = Array.from({ length: 6 }, (_, i) => oldDate(i));
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          dates
            .map(
              (d, i) => `GET /api/reviews/since/${d} HTTP/1.1\r\nHost: x\r\n${i === dates.length - 1 ? 'Connection: close\r\n' : ''}\r\n`,
            )
            .join(''),
        );
      });
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
    });
    const seen: string[] = [];
    for (let at = 0; at < raw.length;) {
      const headEnd = raw.indexOf('\r\n\r\n', at);
      const length = Number(/content-length: (\d+)/i.exec(raw.toString('latin1', at, headEnd))![1]);
      const body = JSON.parse(raw.toString('utf8', headEnd + 4, headEnd + 4 + length)) as { since: string; count: number };
      expect(body.count).toBe(snapshot.view.reviews.length);
      seen.push(body.since);
      at = headEnd + 4 + length;
    }
    expect(seen).toEqual(dates);
  });
});

describe('distinct requests for the same reviews (a since date before the first review)', () => {
  it('cost about what one costs: no copy, no hash and no compression per date', async () => {
    const cpu = async (paths: string[]) => {
      const start = process.cpuUsage();
      for (const p of paths) expect((await get(p, { 'accept-encoding': 'br, gzip' })).status).toBe(200);
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    };
    await cpu([`/api/reviews/since/${oldDate(500)}`]);
    const same = await cpu(Array.from({ length: 20 }, () => `/api/reviews/since/${oldDate(501)}`));
    const distinct = await cpu(Array.from({ length: 20 }, (_, i) => `/api/reviews/since/${oldDate(600 + i)}`));
    expect(distinct, `20 distinct dates took ${distinct} ms of CPU, 20 requests for one date ${same} ms`).toBeLessThan(2 * same + 150);
  });

  it('share their reviews bytes with the snapshot, and keep a strong ETag of their own', async () => {
    const a = await new Promise<{ etag: string; body: string }>((resolve) => {
      http.get({ host: '127.0.0.1', port, path: `/api/reviews/since/${oldDate(7)}`, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ etag: String(res.headers.etag), body }));
      });
    });
    const parsed = JSON.parse(a.body) as { since: string; count: number; total: number; reviews: { id: string }[] };
    expect(parsed.since).toBe(oldDate(7));
    expect(parsed.reviews.map((r) => r.id)).toEqual(snapshot.view.reviews.map((r) => r.id));
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const other = await get(`/api/reviews/since/${oldDate(8)}`, { 'if-none-match': a.etag });
    expect(other.status).toBe(200);
    const same = await get(`/api/reviews/since/${oldDate(7)}`, { 'if-none-match': a.etag });
    expect(same.status).toBe(304);
  });
});
