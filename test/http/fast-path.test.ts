import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createApp } from '../../src/http/app.js';
import type { ServiceMetrics } from '../../src/ops/metrics.js';
import { searchCacheBytes } from '../../src/snapshot/queries.js';
import { type Snapshot } from '../../src/snapshot/snapshot.js';
import { fixtureState } from '../support/fixture.js';
import { BASE_URL, DOCUMENTS, header, request } from './app-harness.js';
import { renderSnapshot, testDocumentRenderers } from '../support/renderers.js';

/**
 * Issue 15: a document's 304 is answered on the socket before Fastify (src/http/fast-path.ts). `inject`
 * never reaches that listener, so these requests go over a real connection and are compared with the
 * answers of Fastify's own path: the same status and headers, the same metrics and log line.
 */
let app: FastifyInstance;
let snapshot: Snapshot;
let port: number;
const observed: [string, string, number][] = [];
const logLines: Record<string, unknown>[] = [];

// Written by node:http on every answer, not by either path.
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive']);

interface Raw {
  status: number;
  headers: [string, string][];
}

function get(path: string, headers: Record<string, string>, method = 'GET'): Promise<Raw & { body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolve({
          status: res.statusCode!,
          headers: pairs.filter(([n]) => !PER_CONNECTION.has(n)),
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The same request through Fastify's full path (inject skips the server's request listener). */
async function viaFastify(path: string, headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET'): Promise<Raw & { body: string }> {
  const res = await app.inject({ method, url: path, headers });
  // In the order they were written (light-my-request reads them back from the header block).
  const pairs = Object.entries(res.headers).map(([n, v]): [string, string] => [n, String(v)]);
  return { status: res.statusCode, headers: pairs.filter(([n]) => !PER_CONNECTION.has(n)), body: res.body };
}

beforeAll(async () => {
  const urls = createServiceUrls(loadConfig({ BASE_URL }).BASE_URL);
  snapshot = await renderSnapshot(fixtureState(), urls, testDocumentRenderers().list);
  const metrics = {
    observeRequest: (route: string, method: string, status: number) => void observed.push([route, method, status]),
  } as unknown as ServiceMetrics;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = await createApp({ snapshots: { current: () => snapshot }, urls, ops: { metrics }, logger: { level: 'info', stream } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app.close();
});

describe('a document revalidated over a connection', () => {
  const cases = DOCUMENTS.flatMap(
    (d) =>
      [
        [d.path, 'GET', {}],
        [d.path, 'HEAD', {}],
        [d.path, 'GET', { 'accept-encoding': 'gzip' }],
        [d.path, 'GET', { 'accept-encoding': 'br, gzip', origin: 'https://elsewhere.example' }],
        [d.path, 'GET', { accept: 'application/json' }],
      ] as const,
  );

  it.each(cases)('%s %s %j answers 304 with the headers of the full path', async (path, method, extra) => {
    const etag = header(await request(app, path), 'etag')!;
    const headers = { ...extra, 'if-none-match': etag };
    const fast = await get(path, headers, method);
    const full = await viaFastify(path, headers, method);
    expect(full.status).toBe(304);
    expect({ ...fast, body: '' }).toEqual({ ...full, body: '' });
    expect(fast.headers.map(([n]) => n)).toEqual(expect.arrayContaining(['access-control-allow-origin', 'etag', 'vary', 'last-modified']));
  });

  it('answers the coded tag a compressed 200 carried, and a list holding it', async () => {
    const doc = snapshot.documents.get('reviews.json')!;
    const gzipTag = `${doc.etag.slice(0, -1)}-gzip"`;
    const a = await get('/reviews.json?x=1', { 'if-none-match': `"other", ${gzipTag}`, 'accept-encoding': 'gzip' });
    expect(a.status).toBe(304);
    expect(a.headers).toContainEqual(['etag', gzipTag]);
  });

  it('leaves every other request to Fastify: no match, no If-None-Match, another method', async () => {
    expect((await get('/reviews.json', { 'if-none-match': '"stale"' })).status).toBe(200);
    expect((await get('/reviews.json', {})).status).toBe(200);
    expect((await get('/reviews.json', { 'if-none-match': snapshot.documents.get('reviews.json')!.etag }, 'DELETE')).status).toBe(405);
  });

  it('counts the answer in the metrics and logs one request line, as the full path does', async () => {
    observed.length = 0;
    logLines.length = 0;
    const etag = snapshot.documents.get('feed.xml')!.etag;
    await get('/feed.xml?since=1', { 'if-none-match': etag }, 'HEAD');
    expect(observed).toEqual([['/feed.xml', 'HEAD', 304]]);
    const lines = logLines.filter((l) => l.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, method: 'HEAD', url: '/feed.xml?since=1', status: 304, ip: '127.0.0.1' });
    expect(lines[0]!.reqId).toMatch(/^req-[0-9a-z]+$/);
  });
});

describe('a search over a connection', () => {
  const searches = [
    '/api/reviews/search',
    '/api/reviews/search?rating=5',
    '/api/reviews/search?min_rating=3.5&since=2020-01-01&limit=2&sort=oldest',
    '/api/reviews/search?query=the&limit=1&unknown=x',
    '/api/reviews/search?query=%E2%9C%93+a&rating=',
  ];

  it.each(searches.flatMap((s) => [[s, 'GET'] as const, [s, 'HEAD'] as const]))(
    '%s %s answers 200 with the status, headers and bytes of the full path',
    async (path, method) => {
      const fast = await get(path, { 'accept-encoding': 'identity' }, method);
      const full = await viaFastify(path, { 'accept-encoding': 'identity' }, method);
      expect(full.status).toBe(200);
      expect(fast).toEqual(full);
    },
  );

  it('answers a revalidation 304 as the full path does, and follows the cursor it gave', async () => {
    const first = await get('/api/reviews/search?limit=1', {});
    const etag = first.headers.find(([n]) => n === 'etag')![1];
    for (const method of ['GET', 'HEAD'] as const) {
      const fast = await get('/api/reviews/search?limit=1', { 'if-none-match': etag }, method);
      expect(fast.status).toBe(304);
      expect(fast).toEqual(await viaFastify('/api/reviews/search?limit=1', { 'if-none-match': etag }, method));
    }
    const cursor = (JSON.parse(first.body) as { next_cursor: string }).next_cursor;
    const next = `/api/reviews/search?limit=1&cursor=${encodeURIComponent(cursor)}`;
    expect(await get(next, {})).toEqual(await viaFastify(next, {}));
  });

  it('leaves invalid, repeated and compressed searches to Fastify, which answers them', async () => {
    observed.length = 0;
    const invalid = await get('/api/reviews/search?rating=9&rating=8', {});
    expect(invalid.status).toBe(400);
    expect(invalid.body).toContain('repeated_parameter');
    const bracketed = await get('/api/reviews/search?rating[]=1', {});
    expect(bracketed.status).toBe(400);
    const gzip = await get('/api/reviews/search?limit=100', { 'accept-encoding': 'gzip' });
    expect(gzip.headers).toContainEqual(['content-encoding', 'gzip']);
    await get('/api/reviews/search?rating=4', {});
    expect(observed).toEqual([
      ['/api/reviews/search', 'GET', 400],
      ['/api/reviews/search', 'GET', 400],
      ['/api/reviews/search', 'GET', 200],
      ['/api/reviews/search', 'GET', 200],
    ]);
  });

  it('answers a repeated search from its cache, and a new snapshot from that snapshot', async () => {
    const path = '/api/reviews/search?limit=100&sort=oldest';
    const first = await get(path, {});
    expect(await get(path, {})).toEqual(first);
    const before = snapshot;
    const state = fixtureState();
    try {
      snapshot = await renderSnapshot({ ...state, reviews: state.reviews.slice(1) }, before.view.urls, testDocumentRenderers().list);
      const after = await get(path, {});
      expect(after).toEqual(await viaFastify(path, {}));
      expect(after.body).not.toBe(first.body);
    } finally {
      snapshot = before;
    }
    expect(await get(path, {})).toEqual(first);
  });

  it('answers a search asked once from a reused buffer without keeping it, and keeps it when asked again', async () => {
    const path = '/api/reviews/search?limit=3&sort=lowest&since=2000-01-01';
    const before = searchCacheBytes(snapshot);
    const once = await get(path, {});
    expect(searchCacheBytes(snapshot)).toBe(before);
    const etag = once.headers.find(([n]) => n === 'etag')![1];
    // A revalidation of an answer not kept is a 304 too, as the full path answers it.
    const other = '/api/reviews/search?sort=lowest&since=2000-01-01&limit=3';
    for (const method of ['GET', 'HEAD'] as const) {
      const fast = await get(`${other}&m=${method}`, { 'if-none-match': etag }, method);
      expect(fast.status).toBe(304);
      expect(fast).toEqual(await viaFastify(`${other}&m=${method}`, { 'if-none-match': etag }, method));
    }
    expect(await get(path, {})).toEqual(once);
    expect(searchCacheBytes(snapshot)).toBeGreaterThan(before);
    expect(once).toEqual(await viaFastify(path, {}));
  });

  it('never lets a reused buffer show in another answer: first-time searches pipelined on one connection', async () => {
    // Pipelined requests are answered in order, each response waiting in memory until the one before it is
    // written: a buffer handed back before its response was written would be overwritten by the next one.
    const paths = Array.from(
      { length: 12 },
      (_, i) => `/api/reviews/search?limit=${(i % 4) + 2}&sort=${i % 2 ? 'oldest' : 'newest'}&p=${i}`,
    );
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`).join(''));
      });
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
    });
    const bodies: string[] = [];
    for (let at = 0; at < raw.length;) {
      const headEnd = raw.indexOf('\r\n\r\n', at);
      const length = Number(/content-length: (\d+)/i.exec(raw.toString('latin1', at, headEnd))![1]);
      bodies.push(raw.toString('utf8', headEnd + 4, headEnd + 4 + length));
      at = headEnd + 4 + length;
    }
    expect(bodies).toEqual(await Promise.all(paths.map(async (p) => (await viaFastify(p, {})).body)));
  });
});
