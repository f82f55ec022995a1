import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review } from '../../src/domain/review.js';
import { BASE_URL, createTestApp, DOCUMENTS, header, json, request, type Answer } from './app-harness.js';
import { fixtureBusiness, fixtureState, MARKERS, UNPUBLISHED_IDS } from '../support/fixture.js';
import { newestUpdatedAt, ordered, publishedReviews } from './expected.js';

let app: FastifyInstance;
const published = publishedReviews();
const HUB = `${BASE_URL}/api/websub/hub`;

/** One URL of every endpoint; the parameterized ones with a value that gives a 200. */
const ENDPOINTS = [
  ...DOCUMENTS.map((d) => d.path),
  '/api/reviews/search?rating=5',
  '/api/reviews/since/2025-03-01',
  '/api/reviews/r01',
  '/.well-known/openapi.json',
];
/** The route patterns, for the method checks. */
const PATHS = [
  ...DOCUMENTS.map((d) => d.path),
  '/api/reviews/search',
  '/api/reviews/since/2025-03-01',
  '/api/reviews/r01',
  '/.well-known/openapi.json',
];

beforeAll(async () => {
  ({ app } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

describe('GET /reviews.json', () => {
  it('is the dataset: business, aggregate over published reviews, reviews newest first, links', async () => {
    const a = await request(app, '/reviews.json');
    expect(a.status).toBe(200);
    expect(header(a, 'content-type')).toBe('application/json; charset=utf-8');
    const body = json<{
      business: unknown;
      aggregate_rating: unknown;
      reviews: Review[];
      updated_at: string;
      links: Record<string, string>;
    }>(a);
    expect(Object.keys(body).sort()).toEqual(['aggregate_rating', 'business', 'links', 'reviews', 'updated_at']);
    expect(body.business).toMatchObject({ ...fixtureBusiness() });
    const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } as Record<string, number>;
    for (const r of published) distribution[String(r.rating)]! += 1;
    const mean = published.reduce((s, r) => s + r.rating, 0) / published.length;
    expect(body.aggregate_rating).toEqual({
      rating_value: Math.round(mean * 100) / 100,
      review_count: published.length,
      best_rating: 5,
      worst_rating: 1,
      distribution,
    });
    expect(body.reviews.map((r) => r.id)).toEqual(ordered(published));
    expect(Date.parse(body.updated_at)).toBe(newestUpdatedAt(published));
    expect(body.links).toMatchObject({
      insights: `${BASE_URL}/insights.json`,
      feed_json: `${BASE_URL}/api/feed.json`,
      feed_xml: `${BASE_URL}/feed.xml`,
      search: `${BASE_URL}/api/reviews/search`,
      openapi: `${BASE_URL}/.well-known/openapi.json`,
      mcp: `${BASE_URL}/mcp`,
      hub: HUB,
    });
  });

  it('serves each review in the public shape: every field, verified true, mentions resolved', async () => {
    const body = json<{ reviews: Review[] }>(await request(app, '/reviews.json'));
    for (const r of body.reviews) {
      expect(Object.keys(r)).toEqual([
        'id',
        'date',
        'rating',
        'title',
        'text',
        'language',
        'author',
        'source',
        'verified',
        'mentions',
        'response',
        'updated_at',
      ]);
      expect(r.verified).toBe(true);
      const stored = published.find((p) => p.id === r.id)!;
      expect(r).toMatchObject({
        date: stored.date,
        rating: stored.rating,
        title: stored.title,
        text: stored.text,
        response: stored.response,
      });
    }
    const byId = new Map(body.reviews.map((r) => [r.id, r]));
    const ids = (r: Review | undefined, kind: keyof Review['mentions']) => r?.mentions[kind].map((m) => m.id);
    expect(byId.get('r01')?.mentions).toEqual({
      technicians: [{ id: 'mike-r', name: 'Mike Rodriguez' }],
      services: [{ id: 'drain-cleaning', name: 'Drain Cleaning' }],
      service_areas: [{ id: 'penasco-heights', name: 'Peñasco Heights' }],
    });
    expect(ids(byId.get('r03'), 'technicians')).toEqual(['jose-g']);
    expect(ids(byId.get('r03'), 'services')).toEqual(['water-heater']);
    expect(ids(byId.get('r05'), 'service_areas')).toEqual(['old-town']);
    expect(ids(byId.get('r06'), 'technicians')).toEqual(['ann-l']);
    expect(ids(byId.get('r07'), 'technicians')).toEqual([]);
    // Text is served exactly as stored: CR-LF, U+0001, markup and emoji.
    expect(byId.get('r03')?.text).toContain('\r\n');
    expect(byId.get('r04')?.text).toContain('\u0001');
    expect(byId.get('r02')?.text).toBe('');
  });
});

describe('GET /insights.json', () => {
  it('is a JSON object generated at the last change of the published data', async () => {
    const a = await request(app, '/insights.json');
    expect(a.status).toBe(200);
    expect(header(a, 'content-type')).toBe('application/json; charset=utf-8');
    const body = json<{ generated_at: string; review_count: number; entities: Record<string, { review_ids?: string[] }[]> }>(a);
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(['generated_at', 'review_count', 'method', 'aspects', 'entities', 'topics', 'faq', 'summary']),
    );
    expect(Date.parse(body.generated_at)).toBe(newestUpdatedAt(published));
    expect(body.review_count).toBe(published.length);
    // Entities are drawn from published reviews only.
    const ids = new Set(published.map((r) => r.id));
    const cited = Object.values(body.entities).flatMap((list) => list.flatMap((e) => e.review_ids ?? []));
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe('GET /api/feed.json', () => {
  it('is JSON Feed 1.1 with hub, feed_url and one item per review, newest first', async () => {
    const a = await request(app, '/api/feed.json');
    expect(a.status).toBe(200);
    expect(header(a, 'content-type')).toBe('application/feed+json');
    const feed = json<{ version: string; feed_url: string; home_page_url: string; hubs: unknown; items: Record<string, unknown>[] }>(a);
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.feed_url).toBe(`${BASE_URL}/api/feed.json`);
    expect(feed.home_page_url).toBe('https://peak.example.com/');
    expect(feed.hubs).toEqual([{ type: 'WebSub', url: HUB }]);
    expect(feed.items.map((i) => i.id)).toEqual(ordered(published));
    const dataset = json<{ reviews: Review[] }>(await request(app, '/reviews.json'));
    for (const item of feed.items) {
      expect(item.url).toBe(`${BASE_URL}/reviews/${String(item.id)}`);
      expect(item._review).toEqual(dataset.reviews.find((r) => r.id === item.id));
      for (const k of ['title', 'content_text', 'content_html', 'date_published', 'date_modified', 'authors', 'tags'])
        expect(item).toHaveProperty(k);
    }
  });

  it.each([
    ['application/json', 'application/json; charset=utf-8'],
    ['application/json;q=0.9, text/plain', 'application/json; charset=utf-8'],
    ['application/feed+json', 'application/feed+json'],
    ['application/feed+json, application/json', 'application/feed+json'],
    ['application/feed+json;q=0, application/json', 'application/json; charset=utf-8'],
    ['*/*', 'application/feed+json'],
    ['text/html', 'application/feed+json'],
  ])('Accept %s gives %s, same bytes, Vary: Accept', async (accept, type) => {
    const plain = await request(app, '/api/feed.json');
    const a = await request(app, '/api/feed.json', { accept });
    expect(a.status).toBe(200);
    expect(header(a, 'content-type')).toBe(type);
    expect(a.body).toBe(plain.body);
    expect(header(a, 'vary')?.toLowerCase()).toContain('accept');
    expect(header(a, 'vary')?.toLowerCase()).toContain('accept-encoding');
  });
});

describe('GET /feed.xml', () => {
  it('is well-formed Atom with alternate, self and hub links and one entry per review', async () => {
    const a = await request(app, '/feed.xml');
    expect(a.status).toBe(200);
    expect(header(a, 'content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(XMLValidator.validate(a.body)).toBe(true);
    expect(a.body).not.toContain('\u0001');
    expect(a.body).not.toContain('<script>');
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'entry' || n === 'link' }).parse(
      a.body,
    ) as {
      feed: { link: { rel?: string; href: string }[]; entry: { id: string; link: { rel?: string; href: string }[] }[] };
    };
    const links = doc.feed.link;
    expect(links[0]?.rel ?? 'alternate').toBe('alternate');
    expect(links).toContainEqual(expect.objectContaining({ rel: 'self', href: `${BASE_URL}/feed.xml` }));
    expect(links).toContainEqual(expect.objectContaining({ rel: 'hub', href: HUB }));
    const expected = ordered(published);
    expect(doc.feed.entry.map((e) => e.id)).toEqual(expected.map((id) => `${BASE_URL}/api/reviews/${id}`));
    for (const e of doc.feed.entry)
      expect(e.link.find((l) => (l.rel ?? 'alternate') === 'alternate')?.href).toBe(e.id.replace('/api/reviews/', '/reviews/'));
  });

  it('the feeds carry at most the 50 newest reviews', async () => {
    const big = await createTestApp(fixtureState({ count: 64 }));
    try {
      const all = ordered(publishedReviews({ count: 64 }));
      const feed = json<{ items: { id: string }[] }>(await request(big.app, '/api/feed.json'));
      expect(feed.items.map((i) => i.id)).toEqual(all.slice(0, 50));
      const atom = (await request(big.app, '/feed.xml')).body;
      expect(atom.match(/<entry[\s>]/g)?.length).toBe(50);
    } finally {
      await big.app.close();
    }
  });
});

describe('every endpoint', () => {
  it.each(ENDPOINTS)('HEAD %s is GET without a body', async (url) => {
    const get = await request(app, url);
    const head = await request(app, url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.raw.length).toBe(0);
    for (const h of ['content-type', 'etag', 'last-modified', 'cache-control', 'link', 'access-control-allow-origin']) {
      expect(header(head, h), h).toBe(header(get, h));
    }
  });

  it.each(PATHS.flatMap((p) => (['POST', 'PUT', 'PATCH', 'DELETE'] as const).map((m) => [m, p] as const)))(
    '%s %s is 405 with Allow',
    async (method, url) => {
      const a = await request(app, url, { 'content-type': 'application/json' }, method);
      expect(a.status).toBe(405);
      const allow = (header(a, 'allow') ?? '').split(',').map((s) => s.trim());
      expect(allow).toEqual(expect.arrayContaining(['GET', 'HEAD']));
      expect(allow).not.toContain(method);
      expect(header(a, 'content-type')).toBe('application/json; charset=utf-8');
      expect(json(a)).toMatchObject({ status: 405, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
    },
  );

  it.each(PATHS)('OPTIONS %s answers a CORS preflight with 204', async (url) => {
    const a = await request(
      app,
      url,
      { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
      'OPTIONS',
    );
    expect(a.status).toBe(204);
    expect(header(a, 'access-control-allow-origin')).toBe('*');
    expect(header(a, 'access-control-allow-methods')).toMatch(/\bGET\b/);
    expect(a.raw.length).toBe(0);
  });

  it.each(ENDPOINTS)('GET %s allows any origin and exposes the validators', async (url) => {
    const a = await request(app, url, { origin: 'https://app.example' });
    expect(a.status).toBe(200);
    expect(header(a, 'access-control-allow-origin')).toBe('*');
    const exposed = (header(a, 'access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['etag', 'last-modified', 'link', 'mcp-session-id']));
  });

  it.each(ENDPOINTS)('GET %s ignores Authorization', async (url) => {
    const plain = await request(app, url);
    for (const authorization of ['Bearer not-a-token', 'Basic Zm9vOmJhcg==', 'garbage']) {
      const a = await request(app, url, { authorization });
      expect(a.status).toBe(plain.status);
      expect(a.body).toBe(plain.body);
      expect(header(a, 'etag')).toBe(header(plain, 'etag'));
    }
  });

  it.each(ENDPOINTS)('GET %s compresses with gzip and br when asked', async (url) => {
    const identity = await request(app, url);
    expect(header(identity, 'content-encoding')).toBeUndefined();
    const decode = { gzip: (b: Buffer) => zlib.gunzipSync(b), br: (b: Buffer) => zlib.brotliDecompressSync(b) };
    for (const coding of ['gzip', 'br'] as const) {
      const a = await request(app, url, { 'accept-encoding': coding });
      expect(a.status).toBe(200);
      expect(header(a, 'vary')?.toLowerCase()).toContain('accept-encoding');
      if (identity.raw.length < 1024) continue; // small bodies may go uncompressed
      expect(header(a, 'content-encoding')).toBe(coding);
      expect(a.raw.length).toBeLessThan(identity.raw.length);
      expect(decode[coding](a.raw).toString('utf8')).toBe(identity.body);
    }
    // Preference order and q=0.
    if (identity.raw.length >= 1024) {
      expect(header(await request(app, url, { 'accept-encoding': 'gzip, br;q=0' }), 'content-encoding')).toBe('gzip');
      expect(header(await request(app, url, { 'accept-encoding': 'identity' }), 'content-encoding')).toBeUndefined();
    }
  });

  it.each([
    '/nope',
    '/reviews.json/',
    '/api/reviews',
    '/api/reviews/since',
    '/feed.json',
    '/REVIEWS.JSON',
    `/api/reviews/${'a'.repeat(600)}`,
  ])('%s is a 404 problem', async (url) => {
    const a = await request(app, url);
    expect(a.status).toBe(404);
    expect(header(a, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(a, 'access-control-allow-origin')).toBe('*');
    expect(json(a)).toMatchObject({ status: 404, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  });
});

describe('malformed URLs', () => {
  it.each(['/api/reviews/%E0%A4%A', '/api/reviews/since/%ZZ', '/api/reviews/%'])('%s is a 400 problem with CORS', async (url) => {
    const a = await request(app, url);
    expect(a.status).toBe(400);
    expect(header(a, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(a, 'access-control-allow-origin')).toBe('*');
    expect(json(a)).toMatchObject({ status: 400, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  });
});

describe('WebSub topics', () => {
  it.each(DOCUMENTS.filter((d) => d.topic).flatMap((d) => (['GET', 'HEAD'] as const).map((m) => [m, d.path] as const)))(
    '%s %s carries Link rel=hub and rel=self',
    async (method, url) => {
      const a = await request(app, url, {}, method);
      expect(a.status).toBe(200);
      const link = header(a, 'link') ?? '';
      const rels = Object.fromEntries([...link.matchAll(/<([^>]+)>\s*;\s*rel="?([a-z]+)"?/g)].map((m) => [m[2], m[1]]));
      expect(rels).toEqual({ hub: HUB, self: `${BASE_URL}${url}` });
    },
  );
});

describe('unpublished records', () => {
  const leaks = (a: Answer) => {
    let text = a.body;
    const coding = header(a, 'content-encoding');
    if (coding === 'gzip') text = zlib.gunzipSync(a.raw).toString('utf8');
    if (coding === 'br') text = zlib.brotliDecompressSync(a.raw).toString('utf8');
    return [MARKERS.unverified, MARKERS.hidden, ...UNPUBLISHED_IDS].filter((m) => text.includes(m));
  };

  it('never appear in any response', async () => {
    const urls = [
      ...ENDPOINTS,
      '/api/reviews/search?limit=100',
      '/api/reviews/search?limit=100&sort=oldest',
      '/api/reviews/search?limit=100&sort=lowest',
      '/api/reviews/search?mentions_technician=mike-r&limit=100',
      '/api/reviews/search?mentions_service=ac-repair&limit=100',
      '/api/reviews/search?query=sparkling&limit=100',
      '/api/reviews/search?since=2026-01-01',
      '/api/reviews/since/2026-01-01',
      '/api/reviews/since/1999-01-01',
    ];
    for (const url of urls) {
      for (const headers of [{}, { 'accept-encoding': 'gzip' }, { accept: 'application/json' }] as Record<string, string>[]) {
        const a = await request(app, url, headers);
        expect(a.status, url).toBe(200);
        expect(leaks(a), url).toEqual([]);
      }
    }
    for (const marker of Object.values(MARKERS)) {
      const found = json<{ total: number }>(await request(app, `/api/reviews/search?query=${marker}`));
      expect(found.total).toBe(0);
    }
    expect(json<{ count: number }>(await request(app, '/api/reviews/since/2026-01-01')).count).toBe(0);
  });
});
