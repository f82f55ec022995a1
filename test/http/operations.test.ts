import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createApp } from '../../src/http/app.js';
import { createServiceMetrics, type ServiceMetrics } from '../../src/ops/metrics.js';
import { SINCE_ANSWERS } from '../../src/http/routes/reviews.js';
import { DEFAULT_MEMO_BUDGETS } from '../../src/snapshot/snapshot-memo.js';
import { buildSnapshot, type Snapshot } from '../../src/snapshot/snapshot.js';
import { fixtureState } from '../support/fixture.js';
import { BASE_URL, createTestApp, header, json, request } from './app-harness.js';

/** Contract §8 (health, readiness, metrics) and the non-MCP findings of the red-team run, in process. */
const urls = createServiceUrls(BASE_URL);
let app: FastifyInstance;
let snapshot: Snapshot;

beforeAll(async () => {
  ({ app, snapshot } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

describe('/healthz and /readyz (contract §8)', () => {
  it('/healthz answers {"status":"ok"}', async () => {
    const a = await request(app, '/healthz');
    expect(a.status).toBe(200);
    expect(json(a)).toEqual({ status: 'ok' });
  });

  it('/readyz names the published count and the snapshot ETag', async () => {
    const a = await request(app, '/readyz');
    expect(a.status).toBe(200);
    expect(json(a)).toEqual({
      status: 'ready',
      reviews: snapshot.view.reviews.length,
      snapshot: snapshot.documents.get('reviews.json')!.etag,
    });
  });

  it('/readyz is 503 before the first snapshot and while the store does not answer', async () => {
    let storeUp = true;
    let ready: Snapshot | null = null;
    const current = () => {
      if (!ready) throw new Error('not started');
      return ready;
    };
    const probe = await createApp({
      snapshots: { current },
      urls,
      ops: {
        readiness: async () => {
          const s = current();
          if (!storeUp) throw new Error('store down');
          return { reviews: s.view.reviews.length, snapshot: 'x' };
        },
      },
    });
    try {
      expect((await request(probe, '/readyz')).status).toBe(503);
      ready = snapshot;
      expect((await request(probe, '/readyz')).status).toBe(200);
      storeUp = false;
      const down = await request(probe, '/readyz');
      expect(down.status).toBe(503);
      expect(header(down, 'retry-after')).toBeDefined();
      expect(json<{ code: string }>(down).code).toBe('unavailable');
    } finally {
      await probe.close();
    }
  });
});

describe('/metrics (contract §8)', () => {
  let metrics: ServiceMetrics;
  let withToken: FastifyInstance;
  beforeAll(async () => {
    metrics = createServiceMetrics();
    metrics.setSources({
      publishedReviews: () => snapshot.view.reviews.length,
      mcpSessions: async () => 3,
      subscriptionsByState: async () => ({ active: 2, expired: 1, pending_verification: 0 }),
      outboxBacklog: async () => 5,
      lastSyncSuccesses: async () => ({ google: new Date('2026-05-01T12:00:00Z') }),
    });
    metrics.countSyncRun('google', 'success');
    metrics.countSyncRun('google', 'failed');
    metrics.countSyncRun('google', 'success');
    withToken = await createApp({ snapshots: { current: () => snapshot }, urls, ops: { metrics, metricsToken: 's3cret' } });
  });
  afterAll(async () => {
    await withToken.close();
  });

  it('is a 404 when METRICS_TOKEN is unset', async () => {
    expect((await request(app, '/metrics', { authorization: 'Bearer s3cret' })).status).toBe(404);
  });

  it('is a 401 without the token or with a wrong one', async () => {
    for (const auth of [undefined, 'Bearer wrong', 'Bearer s3cretx', 's3cret', `Basic ${Buffer.from('a:s3cret').toString('base64')}`]) {
      const a = await request(withToken, '/metrics', auth ? { authorization: auth } : {});
      expect(a.status, String(auth)).toBe(401);
    }
  });

  it('counts requests by route and status and names every family the contract lists', async () => {
    for (let i = 0; i < 3; i++) await request(withToken, '/reviews.json');
    const a = await request(withToken, '/metrics', { authorization: 'Bearer s3cret' });
    expect(a.status).toBe(200);
    expect(header(a, 'content-type')).toMatch(/^text\/plain/);
    const text = a.raw.toString('utf8');
    expect(text).toMatch(/^http_requests_total\{route="\/reviews\.json",method="GET",status="200"\} 3$/m);
    expect(text).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
    for (const family of ['snapshot_build_duration_seconds', 'insights_computation_duration_seconds', 'websub_deliveries_total']) {
      expect(text).toContain(`# TYPE ${family}`);
    }
    expect(text).toMatch(new RegExp(`^published_reviews ${snapshot.view.reviews.length}$`, 'm'));
    expect(text).toMatch(/^mcp_sessions 3$/m);
    expect(text).toMatch(/^websub_subscriptions\{state="active"\} 2$/m);
    expect(text).toMatch(/^websub_outbox_backlog 5$/m);
    // Contract §3.2, "Seen from outside".
    expect(text).toMatch(/^review_data_sync_runs_total\{source="google",outcome="success"\} 2$/m);
    expect(text).toMatch(/^review_data_sync_runs_total\{source="google",outcome="failed"\} 1$/m);
    expect(text).toMatch(/^review_data_sync_last_success_timestamp_seconds\{source="google"\} 1777636800$/m);
    expect(text).not.toMatch(/ Nan$/m);
  });
});

describe('methods and protocol edges', () => {
  it.each(['TRACE', 'PROPFIND', 'MKCOL'])('%s on a resource is 405 with Allow', async (method) => {
    const a = await app.inject({ method: method as 'GET', url: '/reviews.json' });
    expect(a.statusCode).toBe(405);
    expect(a.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(JSON.parse(a.body).code).toBe('method_not_allowed');
  });
});

describe('search parameters', () => {
  it('rating[]=1 is a 400 that says how to give rating', async () => {
    const a = await request(app, '/api/reviews/search?rating[]=1');
    expect(a.status).toBe(400);
    const issues = json<{ issues: { path: string[]; message: string }[] }>(a).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toEqual(['rating[]']);
    expect(issues[0]!.message).toMatch(/rating=VALUE/);
  });

  it('a huge limit reports its issue once', async () => {
    const a = await request(app, `/api/reviews/search?limit=${'9'.repeat(40)}`);
    expect(a.status).toBe(400);
    const issues = json<{ issues: { path: string[] }[] }>(a).issues;
    expect(issues.filter((i) => i.path[0] === 'limit')).toHaveLength(1);
  });
});

describe('the since cache is bounded in bytes', () => {
  it('never holds more than the budget the snapshot was built with, however many dates are asked', async () => {
    // Room for a few kept answers (their heads and headers: their reviews are the snapshot's bytes).
    const budget = 6000;
    const budgets = { ...DEFAULT_MEMO_BUDGETS, since: budget };
    const fresh = (await buildSnapshot(fixtureState(), urls, [], null, Date.now(), new Map(), budgets)).snapshot;
    const small = await createApp({ snapshots: { current: () => fresh }, urls });
    try {
      const kept = fresh.memo.bucket(SINCE_ANSWERS);
      for (let day = 1; day <= 28; day++) {
        const path = `/api/reviews/since/2000-01-${String(day).padStart(2, '0')}`;
        // Kept from a date's second request.
        for (let ask = 0; ask < 2; ask++) expect((await request(small, path)).status).toBe(200);
        expect(kept.bytes()).toBeLessThanOrEqual(budget);
      }
      expect(kept.bytes()).toBeGreaterThan(0);
      // The most recently used answer is still kept, the first ones are not.
      expect(kept.peek('2000-01-28')).toBeDefined();
      expect(kept.peek('2000-01-01')).toBeUndefined();
    } finally {
      await small.close();
    }
  });
});
