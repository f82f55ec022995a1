import http from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createApp, type HttpLimits } from '../../src/http/app.js';
import { datasetRenderer } from '../../src/snapshot/renderers/dataset.js';
import { buildSnapshot } from '../../src/snapshot/snapshot.js';
import { fixtureState } from '../support/fixture.js';

/**
 * Over real sockets: a client that trickles a request body is cut off by the request
 * timeout, one address cannot hold more than its share of connections, and other clients are served
 * all the while. Other clients connect from 127.0.0.2 (any 127/8 address reaches the loopback).
 */
const urls = createServiceUrls('http://127.0.0.1');
const snapshot = (await buildSnapshot(fixtureState(), urls, [datasetRenderer])).snapshot;
let app: FastifyInstance | null = null;
const sockets: net.Socket[] = [];

async function serve(limits: Partial<HttpLimits>): Promise<number> {
  app = await createApp({
    snapshots: { current: () => snapshot },
    urls,
    limits,
    // A route that reads its body, as the MCP endpoint and the hub do.
    plugins: [(a) => void a.post('/echo', async (request) => ({ bytes: JSON.stringify(request.body).length }))],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as net.AddressInfo).port;
}

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await app?.close();
  app = null;
});

/** A raw connection from `localAddress`; resolves when connected, collects what the server sends. */
function connect(port: number, localAddress = '127.0.0.1'): Promise<{ socket: net.Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    sockets.push(socket);
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

function get(port: number, path: string, localAddress = '127.0.0.2'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

describe('slow request bodies and connection floods', () => {
  it('a trickled body is cut off by the request timeout while other clients are served', async () => {
    const port = await serve({ requestTimeoutMs: 1500, headersTimeoutMs: 1000, maxConnectionsPerAddress: 8 });
    const slow = await Promise.all(Array.from({ length: 4 }, () => connect(port)));
    for (const c of slow)
      c.socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    const trickle = setInterval(() => {
      for (const c of slow) if (!c.socket.destroyed) c.socket.write(' ');
    }, 200);
    try {
      // While the slow bodies are being trickled, other clients get their answers.
      const statuses = await Promise.all(Array.from({ length: 20 }, () => get(port, '/reviews.json')));
      expect(statuses.every((s) => s === 200)).toBe(true);
      // Every slow connection ends, with a 408 problem, however long the client keeps trickling.
      await Promise.all(slow.map((c) => c.closed));
      for (const c of slow) expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
    }
    expect(await get(port, '/healthz', '127.0.0.1')).toBe(200);
  });

  it('connections past the per-address cap get a 503 problem; other addresses are still served', async () => {
    const port = await serve({ maxConnectionsPerAddress: 3, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
    const held = await Promise.all(Array.from({ length: 3 }, () => connect(port)));
    const extra = await connect(port);
    await extra.closed;
    expect(extra.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(extra.received()).toMatch(/Retry-After: \d+/);
    expect(extra.received()).toContain('"code":"unavailable"');
    expect(await get(port, '/reviews.json', '127.0.0.2')).toBe(200);
    // A slot freed is a slot usable again, once the server has seen the close.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    let answer = '';
    for (let attempt = 0; attempt < 50 && !answer.startsWith('HTTP/1.1 200 '); attempt++) {
      await new Promise((r) => setTimeout(r, 20));
      const again = await connect(port);
      again.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      await again.closed;
      answer = again.received();
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('a missing Host and an unknown Expect get problem bodies with CORS', async () => {
    const port = await serve({});
    const noHost = await connect(port);
    noHost.socket.write('GET /reviews.json HTTP/1.1\r\nConnection: close\r\n\r\n');
    await noHost.closed;
    expect(noHost.received()).toMatch(/^HTTP\/1\.1 400 /);
    expect(noHost.received()).toMatch(/access-control-allow-origin: \*/i);
    expect(noHost.received()).toContain('"code":"invalid_request"');

    const teapot = await connect(port);
    teapot.socket.write('GET /reviews.json HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n');
    await teapot.closed;
    expect(teapot.received()).toMatch(/^HTTP\/1\.1 417 /);
    expect(teapot.received()).toMatch(/access-control-allow-origin: \*/i);
    expect(teapot.received()).toContain('"code":"invalid_request"');
  });
});
