import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureState, BUSINESS_UPDATED_AT } from '../support/fixture.js';
import { createTestApp, header, request, type Answer } from './app-harness.js';
import { newestUpdatedAt, publishedReviews } from './expected.js';

let app: FastifyInstance;
const published = publishedReviews();

/**
 * The conditional endpoints with their Last-Modified: the time the snapshot was published
 * (docs/decisions.md, Operations), which for this fixture (no commit time) is the newest change among the published data.
 */
const CONDITIONAL: [string, () => number][] = [
  ['/reviews.json', () => newestUpdatedAt(published)],
  ['/insights.json', () => newestUpdatedAt(published)],
  ['/api/feed.json', () => newestUpdatedAt(published)],
  ['/feed.xml', () => newestUpdatedAt(published)],
  ['/api/reviews/search?rating=1', () => newestUpdatedAt(published)],
  ['/api/reviews/search?query=no-such-text', () => newestUpdatedAt(published)],
  ['/api/reviews/since/2025-03-01', () => newestUpdatedAt(published)],
  ['/api/reviews/since/2999-01-01', () => newestUpdatedAt(published)],
  ['/api/reviews/r05', () => newestUpdatedAt(published)],
];
const URLS = CONDITIONAL.map(([u]) => u);

const httpDate = (ms: number) => new Date(ms).toUTCString();

beforeAll(async () => {
  ({ app } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

function expectNotModified(a: Answer, validators: Answer): void {
  expect(a.status).toBe(304);
  expect(a.raw.length).toBe(0);
  expect(header(a, 'etag')).toBeDefined();
  expect(header(a, 'last-modified')).toBe(header(validators, 'last-modified'));
  expect(header(a, 'cache-control')).toBeDefined();
}

describe('validators', () => {
  it.each(CONDITIONAL)('%s has a strong ETag, Last-Modified of its publication, Cache-Control', async (url, lastModified) => {
    const a = await request(app, url);
    expect(a.status).toBe(200);
    expect(header(a, 'etag')).toMatch(/^"[^"]+"$/);
    expect(header(a, 'last-modified')).toBe(httpDate(lastModified()));
    expect(header(a, 'cache-control')).toBeTruthy();
  });

  it('an empty result is last modified when the dataset last changed', async () => {
    const empty = await createTestApp({ ...fixtureState({ count: 0 }) });
    try {
      const a = await request(empty.app, '/api/reviews/since/2020-01-01');
      // Only the unpublished records (updated in 2026) and the business remain: the business counts.
      expect(header(a, 'last-modified')).toBe(httpDate(Date.parse(BUSINESS_UPDATED_AT)));
    } finally {
      await empty.app.close();
    }
  });
});

describe('If-None-Match and If-Modified-Since', () => {
  it.each(URLS)('%s: If-None-Match exact, in a list, weak and * give 304; another tag 200', async (url) => {
    const first = await request(app, url);
    const etag = header(first, 'etag')!;
    for (const inm of [etag, `"other", ${etag}`, `${etag},"other"`, `W/${etag}`, '*']) {
      const a = await request(app, url, { 'if-none-match': inm });
      expectNotModified(a, first);
      expect(header(a, 'etag')).toBe(etag);
    }
    for (const inm of ['"other"', `"${etag.slice(2)}`, `"x${etag.slice(1)}`]) {
      const a = await request(app, url, { 'if-none-match': inm });
      expect(a.status, inm).toBe(200);
      expect(a.body).toBe(first.body);
    }
  });

  it.each(URLS)('%s: If-Modified-Since equal or later gives 304, earlier 200', async (url) => {
    const first = await request(app, url);
    const lm = Date.parse(header(first, 'last-modified')!);
    expectNotModified(await request(app, url, { 'if-modified-since': httpDate(lm) }), first);
    expectNotModified(await request(app, url, { 'if-modified-since': httpDate(lm + 86_400_000) }), first);
    expect((await request(app, url, { 'if-modified-since': httpDate(lm - 1000) })).status).toBe(200);
    expect((await request(app, url, { 'if-modified-since': 'not a date' })).status).toBe(200);
  });

  it.each(URLS)('%s: If-None-Match wins over If-Modified-Since, both ways', async (url) => {
    const first = await request(app, url);
    const etag = header(first, 'etag')!;
    const lm = Date.parse(header(first, 'last-modified')!);
    const stale = await request(app, url, { 'if-none-match': '"other"', 'if-modified-since': httpDate(lm + 86_400_000) });
    expect(stale.status).toBe(200);
    expect(stale.body).toBe(first.body);
    expectNotModified(await request(app, url, { 'if-none-match': etag, 'if-modified-since': httpDate(lm - 86_400_000) }), first);
  });

  it.each(URLS)('%s: 304 whatever the Accept-Encoding, for the identity and the coded tag', async (url) => {
    const first = await request(app, url);
    const etag = header(first, 'etag')!;
    for (const coding of ['gzip', 'br', 'gzip, br', 'identity']) {
      const coded = await request(app, url, { 'accept-encoding': coding });
      expect(coded.status).toBe(200);
      for (const tag of [etag, header(coded, 'etag')!]) {
        const a = await request(app, url, { 'accept-encoding': coding, 'if-none-match': tag });
        expectNotModified(a, first);
        expect(header(a, 'content-encoding')).toBeUndefined();
      }
      expectNotModified(
        await request(app, url, { 'accept-encoding': coding, 'if-modified-since': header(first, 'last-modified')! }),
        first,
      );
    }
  });

  it.each(URLS)('HEAD %s answers 304 the same way', async (url) => {
    const first = await request(app, url);
    const a = await request(app, url, { 'if-none-match': header(first, 'etag')! }, 'HEAD');
    expectNotModified(a, first);
  });
});

describe('ETags are derived from the content', () => {
  it('two apps built independently over the same data send the same ETags and bytes', async () => {
    const other = await createTestApp(fixtureState());
    try {
      for (const url of URLS) {
        for (const headers of [{}, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'br' }] as Record<string, string>[]) {
          const a = await request(app, url, headers);
          const b = await request(other.app, url, headers);
          expect(header(b, 'etag'), url).toBe(header(a, 'etag'));
          expect(header(b, 'last-modified'), url).toBe(header(a, 'last-modified'));
        }
        expect((await request(other.app, url)).body).toBe((await request(app, url)).body);
      }
    } finally {
      await other.app.close();
    }
  });

  it('different content gives a different ETag; unaffected responses keep theirs', async () => {
    const changed = await createTestApp(fixtureState({ patch: { r05: { text: 'Changed text.', updated_at: '2025-02-01T00:00:00Z' } } }));
    try {
      for (const url of [
        '/reviews.json',
        '/insights.json',
        '/api/feed.json',
        '/feed.xml',
        '/api/reviews/r05',
        '/api/reviews/since/2025-01-01',
        '/api/reviews/search?limit=100',
      ]) {
        const a = await request(app, url);
        const b = await request(changed.app, url);
        expect(header(b, 'etag'), url).not.toBe(header(a, 'etag'));
        // The old tag no longer matches.
        expect((await request(changed.app, url, { 'if-none-match': header(a, 'etag')! })).status, url).toBe(200);
      }
      for (const url of ['/api/reviews/r06', '/api/reviews/since/2025-04-01', '/api/reviews/search?rating=1']) {
        expect(header(await request(changed.app, url), 'etag'), url).toBe(header(await request(app, url), 'etag'));
      }
    } finally {
      await changed.app.close();
    }
  });
});
