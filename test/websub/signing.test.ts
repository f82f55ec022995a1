import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Intent } from '../../src/domain/websub-ports.js';
import { classifyDelivery, notificationHeaders, retryDelayMs } from '../../src/websub/delivery.js';
import { hubSignature } from '../../src/websub/signature.js';
import { isConfirmed, newChallenge, verificationUrl, withHubParams } from '../../src/websub/verification.js';

describe('signing (WebSub §7.1)', () => {
  it('is sha256=<hex HMAC of the exact body bytes>', () => {
    const body = Buffer.from('{"a":"é"}');
    expect(hubSignature('s3cret', body)).toBe(`sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`);
    expect(hubSignature('s3cret', body)).not.toBe(hubSignature('other', body));
  });

  it('adds the header only with a secret', () => {
    const content = { body: Buffer.from('x'), contentType: 'application/feed+json', hash: 'h', version: 1 };
    expect(notificationHeaders('https://h/hub', 'https://h/t', content, null)).toEqual({
      'content-type': 'application/feed+json',
      link: '<https://h/hub>; rel="hub", <https://h/t>; rel="self"',
    });
    expect(notificationHeaders('https://h/hub', 'https://h/t', content, 'k')['x-hub-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
  });
});

describe('verification of intent (WebSub §5.3)', () => {
  const intent: Intent = {
    id: 'i',
    mode: 'subscribe',
    topic: 'https://h/feed.xml',
    requestedTopic: 'HTTPS://h/feed.xml',
    callback: 'https://s/cb?b=x%20y&flag',
    secret: null,
    leaseSeconds: 3600,
    createdAt: 0,
  };

  it('keeps the callback query byte for byte and appends the hub parameters', () => {
    const url = verificationUrl(intent, 'C');
    expect(url.startsWith('https://s/cb?b=x%20y&flag&hub.mode=subscribe&')).toBe(true);
    const q = new URL(url).searchParams;
    expect([q.get('hub.topic'), q.get('hub.challenge'), q.get('hub.lease_seconds')]).toEqual(['HTTPS://h/feed.xml', 'C', '3600']);
    expect(verificationUrl({ ...intent, mode: 'unsubscribe' }, 'C')).not.toContain('hub.lease_seconds');
    expect(withHubParams('https://s/cb', { a: '1' })).toBe('https://s/cb?a=1');
    expect(withHubParams('https://s/cb?', { a: '1' })).toBe('https://s/cb?a=1');
  });

  it('makes fresh challenges of at least 128 bits', () => {
    const a = newChallenge();
    expect(Buffer.from(a, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(newChallenge()).not.toBe(a);
  });

  it('confirms only on a 2xx whose body is exactly the challenge', () => {
    expect(isConfirmed({ ok: true, status: 200, body: 'C' }, 'C')).toBe(true);
    expect(isConfirmed({ ok: true, status: 204, body: 'C' }, 'C')).toBe(true);
    expect(isConfirmed({ ok: true, status: 200, body: 'C\n' }, 'C')).toBe(false);
    expect(isConfirmed({ ok: true, status: 302, body: 'C' }, 'C')).toBe(false);
    expect(isConfirmed({ ok: true, status: 404, body: 'C' }, 'C')).toBe(false);
    expect(isConfirmed({ ok: false, error: 'ECONNREFUSED' }, 'C')).toBe(false);
  });
});

describe('delivery outcomes (WebSub §7, contract §6)', () => {
  it('2xx delivered, 410 gone, everything else failed', () => {
    expect(classifyDelivery({ ok: true, status: 202, body: '' })).toBe('delivered');
    expect(classifyDelivery({ ok: true, status: 410, body: '' })).toBe('gone');
    for (const status of [301, 302, 307, 400, 404, 500, 503]) expect(classifyDelivery({ ok: true, status, body: '' })).toBe('failed');
    expect(classifyDelivery({ ok: false, error: 'timeout' })).toBe('failed');
  });

  it('waits the configured delay for each failure, the last one repeating', () => {
    expect([1, 2, 3].map((f) => retryDelayMs(f, [60, 600]))).toEqual([60_000, 600_000, 600_000]);
    expect(retryDelayMs(1, [0.5])).toBe(500);
  });
});
