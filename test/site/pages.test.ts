import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createApp } from '../../src/http/app.js';
import { type Snapshot } from '../../src/snapshot/snapshot.js';
import { BASE_URL, createTestApp, header, json, request, type TestApp } from '../http/app-harness.js';
import { fixtureState, MARKERS, UNPUBLISHED_IDS } from '../support/fixture.js';
import { linkedReviewIds } from './site-harness.js';
import { renderSnapshot, testDocumentRenderers } from '../support/renderers.js';

const HTML = 'text/html; charset=utf-8';
const PAGES = [
  '/',
  '/reviews',
  '/reviews?rating=1&limit=5',
  '/reviews/r40',
  '/technicians/mike-r',
  '/services/drain-cleaning',
  '/areas/old-town',
  '/embed',
  '/docs',
];

describe('the public pages (contract §7)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.app.close());

  it.each(PAGES)('%s is HTML with a CSP, a strong ETag and a 304 for If-None-Match', async (path) => {
    const res = await request(t.app, path);
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe(HTML);
    const csp = header(res, 'content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/https?:|\*\./);
    const etag = header(res, 'etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(header(res, 'last-modified')).toBeTruthy();
    const again = await request(t.app, path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('loads nothing from another origin and names no web font', async () => {
    for (const path of PAGES.filter((p) => p !== '/docs')) {
      const body = (await request(t.app, path)).body;
      const loads = [...body.matchAll(/<(?:script|img|iframe|link)\b[^>]*\b(?:src|href)="([^"]+)"[^>]*>/g)]
        .filter((m) => !/rel="(alternate|canonical)"/.test(m[0]))
        .map((m) => m[1]!);
      expect(loads.filter((u) => !u.startsWith(BASE_URL))).toEqual([]);
    }
    const css = (await request(t.app, '/assets/site.css')).body;
    expect(css).not.toMatch(/@font-face|@import|url\(/);
  });

  it('keeps the home page and its stylesheet under 60 KB', async () => {
    const home = await request(t.app, '/');
    const css = await request(t.app, '/assets/site.css');
    expect(home.raw.length + css.raw.length).toBeLessThan(60 * 1024);
  });

  it('shows the business, the aggregate, its charts and the newest reviews on /, with links to the data', async () => {
    const { body } = await request(t.app, '/');
    const dataset = json<{ aggregate_rating: { review_count: number }; reviews: { id: string }[] }>(await request(t.app, '/reviews.json'));
    expect(body).toContain('Peak Plumbing &amp; Air');
    expect(body).toContain(`from ${dataset.aggregate_rating.review_count} verified reviews`);
    expect(body).toMatch(/<svg class="bar"/);
    expect(linkedReviewIds(body, BASE_URL)).toEqual(expect.arrayContaining(dataset.reviews.slice(0, 5).map((r) => r.id)));
    for (const href of ['/reviews', '/docs', '/feed.xml', '/api/feed.json', '/mcp', '/reviews.json'])
      expect(body).toContain(`href="${BASE_URL}${href}"`);
    expect(body).toContain(`<link rel="alternate" type="application/atom+xml"`);
    expect(body).toMatch(/<main id="main"/);
    expect(body).toMatch(/<nav aria-label="Main">/);
  });

  it('answers / with a JSON index for Accept: application/json, varying on Accept', async () => {
    const html = await request(t.app, '/');
    const res = await request(t.app, '/', { accept: 'application/json' });
    expect(header(res, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(res, 'vary')).toMatch(/Accept,/);
    expect(header(res, 'etag')).not.toBe(header(html, 'etag'));
    const index = json<{ links: Record<string, string>; aggregate_rating: unknown }>(res);
    expect(index.links.reviews_json).toBe(`${BASE_URL}/reviews.json`);
    expect(index.links.mcp).toBe(`${BASE_URL}/mcp`);
    expect(index.aggregate_rating).toEqual(json<{ aggregate_rating: unknown }>(await request(t.app, '/reviews.json')).aggregate_rating);
    expect(header(await request(t.app, '/', { accept: 'text/html,application/json' }), 'content-type')).toBe(HTML);
  });

  it('lists on /reviews exactly the reviews the search API returns, with a next link carrying the cursor', async () => {
    for (const q of [
      'rating=1&limit=20',
      'mentions_technician=Mike&limit=20',
      'query=drain',
      'min_rating=4&sort=oldest&limit=5',
      'limit=10',
    ]) {
      const api = json<{ reviews: { id: string }[]; next_cursor: string | null }>(await request(t.app, `/api/reviews/search?${q}`));
      const page = (await request(t.app, `/reviews?${q}`)).body;
      expect(linkedReviewIds(page, BASE_URL)).toEqual(api.reviews.map((r) => r.id));
      if (api.next_cursor) expect(page).toContain(`cursor=${encodeURIComponent(api.next_cursor)}`);
    }
  });

  it('offers a GET form with the search parameters on /reviews and explains invalid ones with a 400', async () => {
    const { body } = await request(t.app, '/reviews');
    expect(body).toMatch(/<form class="filters card" method="get" action="https:\/\/reviews\.example\.test\/reviews"/);
    for (const name of ['rating', 'min_rating', 'query', 'mentions_technician', 'mentions_service', 'since', 'until', 'sort', 'limit'])
      expect(body).toContain(`name="${name}"`);
    for (const name of ['rating', 'query', 'since']) expect(body).toMatch(new RegExp(`<label for="f-${name}">`));
    const bad = await request(t.app, '/reviews?rating=9&since=2025-02-30');
    expect(bad.status).toBe(400);
    expect(header(bad, 'content-type')).toBe(HTML);
    expect(bad.body).toContain('rating must be a whole number from 1 to 5');
  });

  it('answers 404 pages for unknown and unpublished reviews and catalog entries, without their data', async () => {
    for (const path of [
      `/reviews/${UNPUBLISHED_IDS[0]}`,
      `/reviews/${UNPUBLISHED_IDS[1]}`,
      '/reviews/nope',
      '/technicians/nope',
      '/services/mike-r',
      '/areas/nope',
    ]) {
      const res = await request(t.app, path);
      expect(res.status, path).toBe(404);
      expect(header(res, 'content-type')).toBe(HTML);
      expect(header(res, 'content-security-policy')).toBeTruthy();
      expect(res.body).not.toContain(MARKERS.unverified);
      expect(res.body).not.toContain(MARKERS.hidden);
    }
  });

  it('shows a catalog entry with the reviews that mention it', async () => {
    const { body } = await request(t.app, '/services/drain-cleaning');
    const dataset = json<{ reviews: { id: string; mentions: { services: { id: string }[] } }[] }>(await request(t.app, '/reviews.json'));
    const mentioning = dataset.reviews.filter((r) => r.mentions.services.some((s) => s.id === 'drain-cleaning')).map((r) => r.id);
    expect(mentioning.length).toBeGreaterThan(0);
    expect(linkedReviewIds(body, BASE_URL)).toEqual(mentioning.slice(0, 20));
  });

  it('lets any site frame /embed, and no other page', async () => {
    const embed = await request(t.app, '/embed?limit=2');
    expect(header(embed, 'content-security-policy')).toMatch(/frame-ancestors \*/);
    expect(linkedReviewIds(embed.body, BASE_URL)).toHaveLength(2);
    expect(embed.body).toMatch(/Showing the 2 newest of 40 verified reviews/);
    expect(header(await request(t.app, '/'), 'content-security-policy')).toMatch(/frame-ancestors 'none'/);
  });

  it('serves /docs with swagger-ui from this origin, pointed at the OpenAPI document', async () => {
    const { body } = await request(t.app, '/docs');
    expect(body).toContain(`data-openapi="${BASE_URL}/.well-known/openapi.json"`);
    for (const src of [...body.matchAll(/(?:src|href)="(https:\/\/reviews\.example\.test\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!)) {
      const res = await request(t.app, src.slice(BASE_URL.length));
      expect(res.status, src).toBe(200);
    }
    expect(body).toContain('/docs/assets/swagger-ui-bundle.js');
  });
});

describe('the widget and discovery documents', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.app.close());

  it('serves /widget.js: a classic script under 15 KB that defines review-data-widget for this base URL', async () => {
    const res = await request(t.app, '/widget.js');
    expect(header(res, 'content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.raw.length).toBeLessThan(15 * 1024);
    expect(() => new vm.Script(res.body)).not.toThrow();
    expect(res.body).toContain(`"${BASE_URL}"`);
    expect(res.body).toContain('customElements.define(TAG');
    expect(res.body).toContain('attachShadow');
    // FTC 16 CFR 465.7: nothing in it filters reviews by rating.
    expect(res.body).not.toMatch(/min_rating|getAttribute\('(rating|min|stars)/);
    expect(res.body).not.toMatch(/innerHTML/);
    const etag = header(res, 'etag')!;
    expect((await request(t.app, '/widget.js', { 'if-none-match': etag })).status).toBe(304);
  });

  it('serves llms.txt with the business, the aggregate and links to the data, MCP, feeds and docs', async () => {
    const res = await request(t.app, '/llms.txt');
    expect(header(res, 'content-type')).toBe('text/plain; charset=utf-8');
    expect(res.body.split('\n')[0]).toBe('# Peak Plumbing & Air');
    expect(res.body).toContain('from 40 verified reviews');
    for (const p of ['/reviews.json', '/mcp', '/feed.xml', '/docs']) expect(res.body).toContain(`](${BASE_URL}${p})`);
  });

  it('lists every page in /sitemap.xml and names it in /robots.txt', async () => {
    const sitemap = (await request(t.app, '/sitemap.xml')).body;
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    const dataset = json<{ reviews: { id: string }[] }>(await request(t.app, '/reviews.json'));
    expect(locs).toEqual(
      expect.arrayContaining([`${BASE_URL}/`, `${BASE_URL}/reviews`, `${BASE_URL}/technicians/mike-r`, `${BASE_URL}/areas/old-town`]),
    );
    expect(locs.filter((l) => l.includes('/reviews/'))).toEqual(dataset.reviews.map((r) => `${BASE_URL}/reviews/${r.id}`));
    expect(sitemap).not.toContain(MARKERS.unverified);
    const robots = (await request(t.app, '/robots.txt')).body;
    expect(robots).toContain('User-agent: *');
    expect(robots).toContain(`Sitemap: ${BASE_URL}/sitemap.xml`);
    expect(robots).not.toMatch(/Disallow/);
  });
});

describe('rebuilt with the snapshot', () => {
  it('renders pages again for a new snapshot: new ETag and the new data', async () => {
    const urls = createServiceUrls(BASE_URL);
    const renderers = testDocumentRenderers();
    const build = (patch: Parameters<typeof fixtureState>[0]) => renderSnapshot(fixtureState(patch), urls, renderers.list);
    let current: Snapshot = await build({});
    const app = await createApp({ snapshots: { current: () => current }, urls });
    try {
      const before = await request(app, '/reviews/r40');
      current = await build({ patch: { r40: { text: 'Rewritten after a second visit.', updated_at: '2025-06-01T00:00:00Z' } } });
      const after = await request(app, '/reviews/r40');
      expect(after.body).toContain('Rewritten after a second visit.');
      expect(header(after, 'etag')).not.toBe(header(before, 'etag'));
      expect((await request(app, '/reviews/r40', { 'if-none-match': header(before, 'etag')! })).status).toBe(200);
    } finally {
      await app.close();
      await renderers.close();
    }
  });
});
