import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffMs, PlatformError, platformRequest, retryAfterMs, type PlatformHttpOptions } from '../../src/sync/platform-http.js';

type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

/** A server that answers the given statuses in turn (the last one forever) and counts requests. */
async function scripted(answers: Answer[]) {
  let n = 0;
  const server = http.createServer((_req, res) => {
    const a = answers[Math.min(n++, answers.length - 1)]!;
    setTimeout(() => {
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(a.body ?? '{"ok":true}');
    }, a.delayMs ?? 0);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`), count: () => n };
}
const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

function options(over: Partial<PlatformHttpOptions> = {}) {
  const waits: number[] = [];
  const o: PlatformHttpOptions = {
    timeoutMs: 2000,
    tries: 3,
    baseDelayMs: 1000,
    maxDelayMs: 30_000,
    random: () => 0.5,
    sleep: async (ms) => void waits.push(ms),
    ...over,
  };
  return { o, waits };
}

describe('platform requests (contract §3.2, "A failed run changes nothing")', () => {
  it('retries a 5xx with exponential backoff and jitter, and gives up after 3 tries', async () => {
    const s = await scripted([{ status: 500 }]);
    const { o, waits } = options();
    const err = await platformRequest({ method: 'GET', url: s.url, what: 'the list' }, o).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect((err as PlatformError).code).toBe('http_status');
    expect((err as PlatformError).message).toBe('the list answered HTTP 500 (3 tries)');
    expect(s.count()).toBe(3);
    // Half fixed, half random (random() = 0.5): 750 ms, then 1500 ms.
    expect(waits).toEqual([750, 1500]);
  });

  it('waits what Retry-After says on a 429, in seconds or as an HTTP date, then succeeds', async () => {
    const date = new Date(Date.now() + 7000).toUTCString();
    const s = await scripted([
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 503, headers: { 'retry-after': date } },
      { status: 200, body: '{"reviews":[]}' },
    ]);
    const { o, waits } = options();
    const answer = await platformRequest({ method: 'GET', url: s.url, what: 'the list' }, o);
    expect(answer).toEqual({ status: 200, body: { reviews: [] } });
    expect(waits[0]).toBe(3000);
    expect(waits[1]).toBeGreaterThan(5000);
    expect(waits[1]).toBeLessThanOrEqual(7000);
  });

  it('fails at once when Retry-After asks for longer than it may wait', async () => {
    const s = await scripted([{ status: 429, headers: { 'retry-after': '3600' } }]);
    const { o, waits } = options();
    await expect(platformRequest({ method: 'GET', url: s.url, what: 'the list' }, o)).rejects.toThrow(
      /answered HTTP 429 and asked to wait 3600 s: the next run tries again/,
    );
    expect(waits).toEqual([]);
    expect(s.count()).toBe(1);
  });

  it('times out each attempt, retries, and says so', async () => {
    const s = await scripted([{ status: 200, delayMs: 1500 }]);
    const { o } = options({ timeoutMs: 200, tries: 2 });
    const err = (await platformRequest({ method: 'GET', url: s.url, what: 'the list' }, o).catch((e: unknown) => e)) as PlatformError;
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('the list did not answer within 200 ms (2 tries)');
    expect(s.count()).toBe(2);
  });

  it('a 2xx that is not JSON is malformed and not retried; other statuses are returned as they are', async () => {
    const bad = await scripted([{ status: 200, body: '<html>' }]);
    const { o } = options();
    await expect(platformRequest({ method: 'GET', url: bad.url, what: 'the list' }, o)).rejects.toMatchObject({ code: 'malformed' });
    expect(bad.count()).toBe(1);
    const denied = await scripted([{ status: 401, body: '{"error":{"code":401}}' }]);
    expect(await platformRequest({ method: 'GET', url: denied.url, what: 'the list' }, o)).toEqual({
      status: 401,
      body: { error: { code: 401 } },
    });
    expect(denied.count()).toBe(1);
  });

  it('never follows a redirect (it could carry the bearer token elsewhere)', async () => {
    const target = await scripted([{ status: 200 }]);
    const s = await scripted([{ status: 302, headers: { location: target.url.toString() } }]);
    const { o } = options();
    expect((await platformRequest({ method: 'GET', url: s.url, what: 'the list' }, o)).status).toBe(302);
    expect(target.count()).toBe(0);
  });

  it('a refused connection is a network failure after every try, naming no URL', async () => {
    const s = await scripted([{ status: 200 }]);
    const url = new URL(s.url);
    await new Promise((r) => servers.pop()!.close(r));
    const { o, waits } = options();
    const err = (await platformRequest({ method: 'GET', url, what: 'the list' }, o).catch((e: unknown) => e)) as PlatformError;
    expect(err.code).toBe('network');
    expect(err.message).toBe('the list could not be reached (ECONNREFUSED) (3 tries)');
    expect(waits).toHaveLength(2);
  });

  it('parses Retry-After and bounds the backoff', () => {
    expect(retryAfterMs('12')).toBe(12_000);
    expect(retryAfterMs(new Date(1_000_000 + 5000).toUTCString(), 1_000_000)).toBe(5000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
    const o = { baseDelayMs: 1000, maxDelayMs: 4000 };
    expect(backoffMs(1, { ...o, random: () => 0 })).toBe(500);
    expect(backoffMs(1, { ...o, random: () => 1 })).toBe(1000);
    expect(backoffMs(5, { ...o, random: () => 1 })).toBe(4000);
  });
});
