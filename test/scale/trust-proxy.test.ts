import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createApp } from '../../src/http/app.js';
import type { Snapshot } from '../../src/snapshot/snapshot.js';

// Behind a load balancer every request comes from the proxy: per-address limits (the WebSub hub's) must
// see the client from X-Forwarded-For, and only when the operator says which proxies to believe.

async function ipSeen(trustProxy: boolean | string, forwardedFor: string): Promise<string> {
  const urls = createServiceUrls('https://reviews.example.test');
  const snapshot = {} as Snapshot; // the probe route below never reads it
  const app = await createApp({
    snapshots: { current: () => snapshot },
    urls,
    trustProxy,
    plugins: [(a) => void a.get('/probe-ip', (req) => ({ ip: req.ip }))],
  });
  try {
    const res = await app.inject({ url: '/probe-ip', headers: { 'x-forwarded-for': forwardedFor }, remoteAddress: '10.0.0.5' });
    return (res.json() as { ip: string }).ip;
  } finally {
    await app.close();
  }
}

it('parses TRUST_PROXY: unset or false trusts nobody, true everyone, else a list of proxies', () => {
  expect(loadConfig({}).TRUST_PROXY).toBe(false);
  expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
  expect(loadConfig({}, { 'trust-proxy': '10.0.0.0/8,127.0.0.1' }).TRUST_PROXY).toBe('10.0.0.0/8,127.0.0.1');
});

it('takes the client address from X-Forwarded-For only from a trusted proxy', async () => {
  expect(await ipSeen(false, '203.0.113.7')).toBe('10.0.0.5');
  expect(await ipSeen('10.0.0.0/8', '203.0.113.7')).toBe('203.0.113.7');
  expect(await ipSeen('192.168.0.1', '203.0.113.7')).toBe('10.0.0.5');
});
