import { describe, expect, it } from 'vitest';
import { fixtureState, UNPUBLISHED_IDS } from '../support/fixture.js';
import { header, request, usePublishedApp } from './app-harness.js';

/**
 * One publication-time rule for every representation (JSON, pages, sitemap, feeds): Last-Modified is
 * when the published data changed, so it never goes back (hiding a review must not let
 * If-Modified-Since keep the hidden review on screen), is never in the future (a record's `updated_at`
 * in 2099 dates nothing), and does not move for a change nobody can see (an edit of an unpublished
 * review). The dates inside the documents (Atom's `<updated>`, the sitemap's `lastmod`, `updated_at`)
 * are never later than the publication either.
 */
const T0 = Date.parse('2026-03-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const pub = usePublishedApp({ state: { ...fixtureState(), version: 1, changedAt: iso(T0) }, now: T0 + 5000 });
const JSON_INDEX = { accept: 'application/json' };

/** Every page and document, with the Accept it is asked with. */
function paths(reviewId: string): [string, Record<string, string>][] {
  return [
    ['/', {}],
    ['/', JSON_INDEX],
    ['/embed', {}],
    [`/reviews/${reviewId}`, {}],
    ['/reviews?rating=5', {}],
    ['/technicians/mike-r', {}],
    ['/services/drain-cleaning', {}],
    ['/areas/old-town', {}],
    ['/sitemap.xml', {}],
    ['/llms.txt', {}],
    ['/robots.txt', {}],
    ['/docs', {}],
    ['/reviews.json', {}],
    ['/insights.json', {}],
    ['/api/feed.json', {}],
    ['/feed.xml', {}],
    ['/api/reviews/search?rating=5', {}],
    ['/api/reviews/since/2000-01-01', {}],
    [`/api/reviews/${reviewId}`, {}],
  ];
}

interface Seen {
  lm: string;
  etag: string;
  body: string;
}

async function look(reviewId: string): Promise<Map<string, Seen>> {
  const out = new Map<string, Seen>();
  for (const [p, headers] of paths(reviewId)) {
    const a = await request(pub.app, p, headers);
    expect(a.status, p).toBe(200);
    out.set(`${p} ${JSON.stringify(headers)}`, { lm: header(a, 'last-modified')!, etag: header(a, 'etag')!, body: a.body });
  }
  return out;
}

describe('one publication time for every representation', () => {
  it('hiding the newest review moves every page forward, and its old date no longer answers 304', async () => {
    const keep = pub.current.view.reviews[1]!.id;
    const before = await look(keep);
    const newest = pub.current.view.reviews[0]!.id;
    const state = fixtureState();
    const T1 = T0 + 60_000;
    await pub.publish(
      { ...state, reviews: state.reviews.map((r) => (r.id === newest ? { ...r, hidden: true } : r)), version: 2, changedAt: iso(T1) },
      T1 + 1000,
    );
    const after = await look(keep);
    for (const [key, was] of before) {
      const is = after.get(key)!;
      expect(Date.parse(is.lm), `${key} went back`).toBeGreaterThanOrEqual(Date.parse(was.lm));
      expect(Date.parse(is.lm), `${key} is in the future`).toBeLessThanOrEqual(T1 + 1000);
      if (is.etag === was.etag) continue;
      const [p, headers] = paths(keep).find(([path, h]) => `${path} ${JSON.stringify(h)}` === key)!;
      const conditional = await request(pub.app, p, { ...headers, 'if-modified-since': was.lm });
      expect(conditional.status, `${key}: If-Modified-Since its date before the change`).toBe(200);
    }
    // The pages that show the newest reviews changed, and say so.
    expect(after.get('/ {}')!.etag).not.toBe(before.get('/ {}')!.etag);
    expect(after.get('/ {}')!.body).not.toContain(`/reviews/${newest}"`);
  });

  it('a record dated 2099 dates nothing in the future, in the headers or in the documents', async () => {
    const state = fixtureState();
    const T2 = T0 + 120_000;
    const reviews = state.reviews.map((r, i) => (i === 0 ? { ...r, updated_at: '2099-01-01T00:00:00Z', title: 'from the future' } : r));
    await pub.publish({ ...state, reviews, version: 3, changedAt: iso(T2) }, T2 + 1000);
    const id = reviews[0]!.id;
    const seen = await look(id);
    for (const [key, s] of seen) expect(Date.parse(s.lm), key).toBeLessThanOrEqual(T2 + 1000);
    const dates = (body: string, pattern: RegExp) => [...body.matchAll(pattern)].map((m) => m[1]!);
    const atom = seen.get('/feed.xml {}')!.body;
    expect(dates(atom, /<updated>([^<]+)<\/updated>/g).every((d) => Date.parse(d) <= T2)).toBe(true);
    const sitemap = seen.get('/sitemap.xml {}')!.body;
    expect(dates(sitemap, /<lastmod>([^<]+)<\/lastmod>/g).every((d) => d <= iso(T2).slice(0, 10))).toBe(true);
    expect(
      Date.parse((JSON.parse(seen.get(`/ ${JSON.stringify(JSON_INDEX)}`)!.body) as { updated_at: string }).updated_at),
    ).toBeLessThanOrEqual(T2);
    expect(Date.parse((JSON.parse(seen.get('/reviews.json {}')!.body) as { updated_at: string }).updated_at)).toBeLessThanOrEqual(T2);
    const feed = JSON.parse(seen.get('/api/feed.json {}')!.body) as { items: { date_modified: string; _review: { updated_at: string } }[] };
    expect(feed.items.every((i) => Date.parse(i.date_modified) <= T2)).toBe(true);
    // The record itself is served as it was imported.
    expect(feed.items.some((i) => i._review.updated_at === '2099-01-01T00:00:00Z')).toBe(true);
  });

  it('an edit of an unpublished review moves no date and no tag', async () => {
    const T3 = T0 + 180_000;
    await pub.publish({ ...fixtureState(), version: 4, changedAt: iso(T3) }, T3 + 1000);
    const keep = pub.current.view.reviews[1]!.id;
    const before = await look(keep);
    const state = fixtureState();
    const T4 = T3 + 60_000;
    const edited = state.reviews.map((r) => (r.id === UNPUBLISHED_IDS[1] ? { ...r, text: `${r.text} (edited)`, updated_at: iso(T4) } : r));
    await pub.publish({ ...state, reviews: edited, version: 5, changedAt: iso(T4) }, T4 + 1000);
    const after = await look(keep);
    for (const [key, was] of before) {
      expect(after.get(key)!.lm, key).toBe(was.lm);
      expect(after.get(key)!.etag, key).toBe(was.etag);
    }
  });
});
