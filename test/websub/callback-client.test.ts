import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackClient } from '../../src/websub/callback-client.js';

describe('callback client', () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => res.end(new URL(req.url ?? '/', 'http://x').searchParams.get('hub.challenge') ?? ''));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('times the callback, not its own loading: a first request after a slow start is not a timeout (contract §6)', async () => {
    const timeoutMs = 1000;
    let loaded!: () => void;
    const started = new Promise<void>((resolve) => (loaded = resolve));
    const client = createCallbackClient({
      timeoutMs,
      allowPrivate: true,
      load: () => started.then(() => import('undici')),
    });
    try {
      const answer = client.get(`${url}?hub.challenge=abc`);
      // The client is still loading when a whole timeout has passed: a busy machine's first callback.
      await new Promise((resolve) => setTimeout(resolve, timeoutMs * 2));
      loaded();
      expect(await answer).toEqual({ ok: true, status: 200, body: 'abc' });
    } finally {
      await client.close();
    }
  });

  it('a client that cannot load answers a failure, never throws', async () => {
    const client = createCallbackClient({ timeoutMs: 1000, allowPrivate: true, load: () => Promise.reject(new Error('no undici')) });
    expect(await client.post(url, Buffer.from('x'), {})).toEqual({ ok: false, error: 'Error' });
  });
});
