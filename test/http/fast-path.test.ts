import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceUrls } from '../../src/domain/urls.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createApp } from '../../src/http/app.js';
import { SEARCH_ANSWERS } from '../../src/http/routes/reviews.js';
import type { ServiceMetrics } from '../../src/ops/metrics.js';
import { type Snapshot } from '../../src/snapshot/snapshot.js';
import { fixtureState } from '../support/fixture.js';
import { renderSnapshot, testDocumentRenderers } from '../support/renderers.js';
import { BASE_URL, DOCUMENTS } from './app-harness.js';

/**
 * The answers of the documents and of search are taken before Fastify (src/http/fast-path.ts). Both
 * paths write the same prepared response; these tests hold them to it byte for byte over real sockets
 * (inject never reaches the server's request listener): every request below goes to an app that
 * answers it before Fastify and to one that routes everything through Fastify (`fastPath: false`),
 * each over its own snapshot of the same data, and the two exchanges must be the same bytes but for
 * the Date header. The same with the production settings: a trusted proxy and info logs.
 */
interface Served {
  app: FastifyInstance;
  port: number;
  snapshot: Snapshot;
  /** Requests Fastify's hook chain saw (a global onRequest hook, which the fast path skips). */
  routed: number;
  observed: [string, string, number][];
  lines: Record<string, unknown>[];
}

const urls: ServiceUrls = createServiceUrls(BASE_URL);

async function serve(options: { fastPath: boolean; trustProxy?: boolean }): Promise<Served> {
  const snapshot = await renderSnapshot(fixtureState(), urls, testDocumentRenderers().list);
  const served = { snapshot, routed: 0, observed: [], lines: [] } as unknown as Served;
  const metrics = {
    observeRequest: (route: string, method: string, status: number) => void served.observed.push([route, method, status]),
  } as unknown as ServiceMetrics;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) served.lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  served.app = await createApp({
    snapshots: { current: () => served.snapshot },
    urls,
    ops: { metrics },
    logger: { level: 'info', stream },
    fastPath: options.fastPath,
    ...(options.trustProxy ? { trustProxy: true } : {}),
    plugins: [
      (app) => {
        app.addHook('onRequest', async () => void served.routed++);
      },
    ],
  });
  await served.app.listen({ host: '127.0.0.1', port: 0 });
  served.port = (served.app.server.address() as AddressInfo).port;
  return served;
}

/** One request over a new connection (`Connection: close`), and every byte of the answer. */
function exchange(port: number, method: string, path: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      const lines = Object.entries({ host: '127.0.0.1', connection: 'close', ...headers }).map(([n, v]) => `${n}: ${v}\r\n`);
      // Not end(): a client that half-closes has its pending answers dropped by node:http.
      socket.write(`${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
}

/** The answer without its Date header, the one line node:http writes per answer whatever the path. */
const withoutDate = (raw: Buffer) => {
  const text = raw.toString('latin1');
  return Buffer.from(text.replace(/\r\nDate: [^\r]*/, ''), 'latin1');
};
const statusOf = (raw: Buffer) => Number(raw.toString('latin1', 9, 12));
const headerOf = (raw: Buffer, name: string) => new RegExp(`\r\n${name}: ([^\r]*)`, 'i').exec(raw.toString('latin1'))?.[1];

let fast: Served;
let full: Served;
let proxied: Served;
let proxiedFull: Served;

beforeAll(async () => {
  [fast, full, proxied, proxiedFull] = await Promise.all([
    serve({ fastPath: true }),
    serve({ fastPath: false }),
    serve({ fastPath: true, trustProxy: true }),
    serve({ fastPath: false, trustProxy: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([fast, full, proxied, proxiedFull].map((s) => s.app.close()));
});

/** The same request to both apps of a pair: the same bytes but Date, and the fast one never reached Fastify. */
async function same(pair: [Served, Served], method: string, path: string, headers: Record<string, string> = {}): Promise<Buffer> {
  const [a, b] = pair;
  const routed = a.routed;
  const one = await exchange(a.port, method, path, headers);
  const two = await exchange(b.port, method, path, headers);
  expect(withoutDate(one).toString('latin1')).toBe(withoutDate(two).toString('latin1'));
  expect(a.routed, `${method} ${path} went through Fastify`).toBe(routed);
  return one;
}

const etagOf = (s: Served, path: string) => s.snapshot.documents.get(path.replace(/^\/(api\/)?/, ''))!.etag;

describe.each([
  ['directly', () => [fast, full] as [Served, Served]],
  ['behind a trusted proxy with info logs', () => [proxied, proxiedFull] as [Served, Served]],
])('%s, the fast path and Fastify write the same bytes', (_name, pair) => {
  it.each(DOCUMENTS.map((d) => d.path))('for every answer of %s', async (path) => {
    const [a] = pair();
    const etag = etagOf(a, path);
    const gzipTag = `${etag.slice(0, -1)}-gzip"`;
    const cases: [string, Record<string, string>][] = [
      ['GET', {}],
      ['HEAD', {}],
      ['GET', { 'accept-encoding': 'gzip' }],
      ['GET', { 'accept-encoding': 'br, gzip', origin: 'https://elsewhere.example' }],
      ['HEAD', { 'accept-encoding': 'br' }],
      ['GET', { accept: 'application/json' }],
      ['GET', { 'if-none-match': etag }],
      ['HEAD', { 'if-none-match': etag }],
      ['GET', { 'if-none-match': `"other", ${gzipTag}`, 'accept-encoding': 'gzip' }],
      ['GET', { 'if-none-match': '"stale"' }],
      ['GET', { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() }],
      ['GET', { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT', 'x-forwarded-for': '203.0.113.7' }],
    ];
    const statuses = [];
    for (const [method, headers] of cases) statuses.push(statusOf(await same(pair(), method, `${path}?q=1`, headers)));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 304, 304, 304, 200, 304, 200]);
  });

  it('for searches asked once, again and again, plain, compressed and revalidated', async () => {
    const searches = [
      '/api/reviews/search',
      '/api/reviews/search?rating=5',
      '/api/reviews/search?min_rating=3.5&since=2020-01-01&limit=2&sort=oldest',
      '/api/reviews/search?query=the&limit=1&unknown=x',
      '/api/reviews/search?query=%E2%9C%93+a&rating=',
      '/api/reviews/search?limit=100',
    ];
    for (const path of searches) {
      for (let round = 0; round < 3; round++) {
        const plain = await same(pair(), 'GET', path);
        expect(statusOf(plain)).toBe(200);
        await same(pair(), 'HEAD', path);
        await same(pair(), 'GET', path, { 'accept-encoding': 'gzip' });
        const etag = headerOf(plain, 'etag')!;
        expect(statusOf(await same(pair(), 'GET', path, { 'if-none-match': etag }))).toBe(304);
        await same(pair(), 'HEAD', path, { 'if-none-match': etag, 'accept-encoding': 'br' });
      }
    }
    // Kept from their second request, in the bucket of the snapshot's memo.
    expect(pair()[0].snapshot.memo.bucket(SEARCH_ANSWERS).bytes()).toBeGreaterThan(0);
  });
});

describe('what stays with Fastify', () => {
  it('invalid, repeated and bracketed parameters, other methods, a request without Host', async () => {
    const routed = fast.routed;
    const invalid = await exchange(fast.port, 'GET', '/api/reviews/search?rating=9&rating=8', {});
    expect(statusOf(invalid)).toBe(400);
    expect(invalid.toString()).toContain('repeated_parameter');
    expect(statusOf(await exchange(fast.port, 'GET', '/api/reviews/search?rating[]=1', {}))).toBe(400);
    expect(statusOf(await exchange(fast.port, 'DELETE', '/reviews.json', {}))).toBe(405);
    expect(fast.routed).toBe(routed + 3);
  });
});

describe('one log line and one metric per request, whichever path answers (contract §8)', () => {
  it.each([
    ['directly', () => [fast, full] as [Served, Served], '127.0.0.1'],
    ['behind a trusted proxy', () => [proxied, proxiedFull] as [Served, Served], '203.0.113.7'],
  ])('%s', async (_name, pair, ip) => {
    const lines: Record<string, unknown>[][] = [];
    const observed: [string, string, number][][] = [];
    for (const s of pair()) {
      s.lines.length = 0;
      s.observed.length = 0;
      const etag = etagOf(s, '/feed.xml');
      await exchange(s.port, 'HEAD', '/feed.xml?since=1', { 'if-none-match': etag, 'x-forwarded-for': '203.0.113.7' });
      await exchange(s.port, 'GET', '/api/reviews/search?limit=1', { 'x-forwarded-for': '203.0.113.7' });
      lines.push(
        s.lines
          .filter((l) => l.msg === 'request')
          .map(({ ms: _ms, time: _time, pid: _pid, hostname: _host, reqId, ...rest }) => ({ ...rest, reqId: typeof reqId })),
      );
      observed.push([...s.observed]);
    }
    expect(lines[0]).toEqual([
      { level: 30, msg: 'request', method: 'HEAD', url: '/feed.xml?since=1', status: 304, ip, reqId: 'string' },
      { level: 30, msg: 'request', method: 'GET', url: '/api/reviews/search?limit=1', status: 200, ip, reqId: 'string' },
    ]);
    expect(lines[1]).toEqual(lines[0]);
    expect(observed[0]).toEqual([
      ['/feed.xml', 'HEAD', 304],
      ['/api/reviews/search', 'GET', 200],
    ]);
    expect(observed[1]).toEqual(observed[0]);
  });
});

describe('searches over a connection', () => {
  it('answers a new snapshot from that snapshot', async () => {
    const path = '/api/reviews/search?limit=100&sort=oldest';
    const first = await exchange(fast.port, 'GET', path, {});
    const before = fast.snapshot;
    const state = fixtureState();
    try {
      fast.snapshot = await renderSnapshot({ ...state, reviews: state.reviews.slice(1) }, urls, testDocumentRenderers().list);
      const after = await exchange(fast.port, 'GET', path, {});
      expect(headerOf(after, 'etag')).not.toBe(headerOf(first, 'etag'));
    } finally {
      fast.snapshot = before;
    }
    expect(withoutDate(await exchange(fast.port, 'GET', path, {}))).toEqual(withoutDate(first));
  });

  it('never lets a reused buffer show in another answer: first-time searches pipelined on one connection', async () => {
    // Pipelined requests are answered in order, each response waiting in memory until the one before it is
    // written: a buffer handed back before its response was written would be overwritten by the next one.
    const paths = Array.from(
      { length: 12 },
      (_, i) => `/api/reviews/search?limit=${(i % 4) + 2}&sort=${i % 2 ? 'oldest' : 'newest'}&p=${i}`,
    );
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(fast.port, '127.0.0.1', () => {
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
    const expected = await Promise.all(paths.map(async (p) => (await full.app.inject({ url: p })).body));
    expect(bodies).toEqual(expected);
  });
});
