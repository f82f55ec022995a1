import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createApp } from '../../src/http/app.js';
import { buildSnapshot } from '../../src/snapshot/snapshot.js';

/** Raw bytes over a socket: these requests never reach Fastify's router, only Node's HTTP parser. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('errors of the HTTP parser', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    const urls = createServiceUrls('http://127.0.0.1');
    const { snapshot } = await buildSnapshot({ business: null, businessUpdatedAt: null, reviews: [], version: 0 }, urls, []);
    app = await createApp({ snapshots: { current: () => snapshot }, urls });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => app.close());

  it('answers an oversized request line with a 431 problem, with CORS', async () => {
    const res = await raw(port, `GET /api/reviews/search?query=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res).toMatch(/^HTTP\/1\.1 431 /);
    expect(res).toMatch(/access-control-allow-origin: \*/i);
    const body = JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4)) as { status: number; type: string; detail: string };
    expect(body.status).toBe(431);
    expect(body.type).toMatch(/^urn:review-data:problem:/);
  });

  it('answers garbage with a 400 problem', async () => {
    const res = await raw(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(res).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400 });
  });
});
