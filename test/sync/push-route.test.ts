import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncSource } from '../../src/domain/sync-ports.js';
import { notificationOf, pushRoutePlugin } from '../../src/sync/push-route.js';
import { createTestApp } from '../http/app-harness.js';
import { fixtureState } from '../support/fixture.js';

const TOKEN = 'push-token-0123456789-NEVER-PRINT';
const data = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
const message = (
  payload: unknown = { type: 'NEW_REVIEW', reviewName: 'accounts/1/locations/2/reviews/3', locationName: 'accounts/1/locations/2' },
) =>
  JSON.stringify({
    message: { data: data(payload), messageId: '17', publishTime: '2026-06-01T10:00:00Z' },
    subscription: 'projects/p/subscriptions/s',
  });

describe('POST /api/sync/google (contract §3.2, push)', () => {
  let app: FastifyInstance;
  const pushes: SyncSource[] = [];
  let logged = '';
  beforeAll(async () => {
    const sink = new Writable({ write: (chunk: Buffer, _e, done) => ((logged += chunk.toString()), done()) });
    ({ app } = await createTestApp(fixtureState(), {
      logger: pino({ level: 'info' }, sink),
      plugins: [pushRoutePlugin({ token: TOKEN, push: (s) => pushes.push(s) })],
    }));
  });
  afterAll(() => app.close());
  const post = (url: string, body: string, type = 'application/json') =>
    app.inject({ method: 'POST', url, payload: body, headers: { 'content-type': type } });

  it('a well-formed message answers 204 and starts a run', async () => {
    const r = await post(`/api/sync/google?token=${encodeURIComponent(TOKEN)}`, message());
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    expect(pushes).toEqual(['google']);
    // A repeated message is harmless: it starts another run, which finds nothing to change.
    expect((await post(`/api/sync/google?token=${encodeURIComponent(TOKEN)}`, message())).statusCode).toBe(204);
  });

  it('a wrong or missing token is a 403 problem that starts nothing, whatever the body', async () => {
    const before = pushes.length;
    for (const url of ['/api/sync/google', '/api/sync/google?token=wrong', `/api/sync/google?token=${TOKEN}x`, '/api/sync/google?token=']) {
      for (const body of [message(), '{not json']) {
        const r = await post(url, body);
        expect(r.statusCode, url).toBe(403);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(r.body)).toMatchObject({ status: 403, code: 'forbidden', type: 'urn:review-data:problem:forbidden' });
      }
    }
    expect(pushes.length).toBe(before);
  });

  it('with the right token, a body that is not a push message is a 400 problem saying why', async () => {
    const before = pushes.length;
    const url = `/api/sync/google?token=${encodeURIComponent(TOKEN)}`;
    const cases: [string, RegExp][] = [
      ['{"message": 12}', /message\.data/],
      ['{"message": {}}', /message\.data/],
      ['{"message": {"data": "%%%"}}', /not base64/],
      [JSON.stringify({ message: { data: Buffer.from('not json').toString('base64') } }), /base64 of a JSON object/],
      [JSON.stringify({ message: { data: data([1, 2]) } }), /base64 of a JSON object/],
      ['{broken', /JSON/i],
    ];
    for (const [body, reason] of cases) {
      const r = await post(url, body);
      expect(r.statusCode, body).toBe(400);
      expect(JSON.parse(r.body).detail, body).toMatch(reason);
    }
    expect(pushes.length).toBe(before);
  });

  it('only POST: other methods are 405 with Allow', async () => {
    const r = await app.inject({ method: 'GET', url: `/api/sync/google?token=${TOKEN}` });
    expect(r.statusCode).toBe(405);
    expect(r.headers.allow).toBe('POST, OPTIONS');
  });

  it('no log line carries the push token, however its name is spelled; one line per request', async () => {
    logged = '';
    for (const key of ['token', '%74oken', 'TOKEN', 't%6Fken']) {
      const r = await post(`/api/sync/google?${key}=${encodeURIComponent(TOKEN)}&x=1`, message());
      // Fastify's query parser decodes names: `%74oken` is `token`, and the push is accepted.
      expect(r.statusCode, key).toBe(key === 'TOKEN' ? 403 : 204);
    }
    const lines = logged.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(logged).toContain('/api/sync/google?%74oken=***&x=1');
    expect(logged).not.toContain('NEVER-PRINT');
  });

  it('reads the notification type, and refuses what is not a notification', () => {
    expect(notificationOf(JSON.parse(message()))).toEqual({ ok: true, type: 'NEW_REVIEW' });
    expect(notificationOf({ message: { data: data({}) } })).toEqual({ ok: true, type: null });
    expect(notificationOf(null).ok).toBe(false);
  });
});

describe('without GOOGLE_PUSH_TOKEN', () => {
  it('the path is a 404', async () => {
    const { app } = await createTestApp();
    try {
      const r = await app.inject({
        method: 'POST',
        url: '/api/sync/google?token=x',
        payload: message(),
        headers: { 'content-type': 'application/json' },
      });
      expect(r.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
