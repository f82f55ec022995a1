import { describe, expect, it } from 'vitest';
import { fixtureState } from '../support/fixture.js';
import { header, request, usePublishedApp } from './app-harness.js';

/**
 * Last-Modified comes from the time a change was published, never from record fields. It
 * never goes back for a resource whose content changed, is never in the future, and If-Modified-Since
 * answers 304 only when the content is the same.
 */
const T0 = Date.parse('2026-03-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const pub = usePublishedApp({ state: { ...fixtureState(), version: 1, changedAt: iso(T0) }, now: T0 + 5000 });
const httpDate = (ms: number) => new Date(ms).toUTCString();
const PATHS = ['/reviews.json', '/api/feed.json', '/feed.xml', '/api/reviews/since/2000-01-01', '/api/reviews/search?rating=5'];

async function validators(): Promise<Map<string, { lm: string; etag: string }>> {
  const out = new Map<string, { lm: string; etag: string }>();
  for (const p of PATHS) {
    const a = await request(pub.app, p);
    expect(a.status, p).toBe(200);
    out.set(p, { lm: header(a, 'last-modified')!, etag: header(a, 'etag')! });
  }
  return out;
}

describe('Last-Modified follows publication', () => {
  it('hiding the newest review moves Last-Modified forward, and the old date no longer gives 304', async () => {
    const before = await validators();
    const state = fixtureState();
    const newest = pub.current.view.reviews[0]!.id;
    const reviews = state.reviews.map((r) => (r.id === newest ? { ...r, hidden: true } : r));
    const T1 = T0 + 60_000;
    await pub.publish({ ...state, reviews, version: 2, changedAt: iso(T1) }, T1 + 1000);
    for (const p of ['/reviews.json', '/api/feed.json', '/feed.xml', '/api/reviews/since/2000-01-01']) {
      const a = await request(pub.app, p);
      expect(header(a, 'etag'), p).not.toBe(before.get(p)!.etag);
      expect(Date.parse(header(a, 'last-modified')!), p).toBeGreaterThan(Date.parse(before.get(p)!.lm));
      expect(header(a, 'last-modified'), p).toBe(httpDate(T1));
      const conditional = await request(pub.app, p, { 'if-modified-since': before.get(p)!.lm });
      expect(conditional.status, `${p} If-Modified-Since the old date`).toBe(200);
    }
  });

  it('an updated_at in 2099 does not put Last-Modified in the future', async () => {
    const state = fixtureState();
    const reviews = state.reviews.map((r, i) => (i === 0 ? { ...r, updated_at: '2099-01-01T00:00:00Z', title: 'from the future' } : r));
    const T2 = T0 + 120_000;
    await pub.publish({ ...state, reviews, version: 3, changedAt: iso(T2) }, T2 + 1000);
    for (const p of PATHS) {
      const a = await request(pub.app, p);
      expect(Date.parse(header(a, 'last-modified')!), p).toBeLessThanOrEqual(T2 + 1000);
    }
  });

  it('a commit time ahead of the clock is clamped to now', async () => {
    const now = T0 + 180_000;
    await pub.publish({ ...fixtureState(), version: 4, changedAt: iso(now + 3_600_000) }, now);
    expect(Date.parse(header(await request(pub.app, '/reviews.json'), 'last-modified')!)).toBe(now);
  });

  it('a document whose bytes did not change keeps its Last-Modified and its 304', async () => {
    const before = await validators();
    const later = T0 + 240_000;
    // A change elsewhere (a new version, same data): nothing any document shows changed.
    await pub.publish({ ...fixtureState(), version: 5, changedAt: iso(later) }, later);
    const a = await request(pub.app, '/feed.xml', { 'if-modified-since': before.get('/feed.xml')!.lm });
    expect(a.status).toBe(304);
    expect(header(a, 'last-modified')).toBe(before.get('/feed.xml')!.lm);
  });

  it('two contents published within one second: If-Modified-Since alone never answers 304', async () => {
    const t = T0 + 300_000;
    const state = fixtureState();
    const edited = state.reviews.map((r, i) => (i === 2 ? { ...r, title: 'edited first' } : r));
    await pub.publish({ ...state, reviews: edited, version: 6, changedAt: iso(t + 100) }, t + 200);
    const first = await request(pub.app, '/reviews.json');
    expect(header(first, 'last-modified')).toBe(httpDate(t));
    const reviews = state.reviews.map((r, i) => (i === 1 ? { ...r, title: 'edited in the same second' } : r));
    await pub.publish({ ...state, reviews, version: 7, changedAt: iso(t + 600) }, t + 700);
    const second = await request(pub.app, '/reviews.json');
    expect(header(second, 'etag')).not.toBe(header(first, 'etag'));
    expect(header(second, 'last-modified')).toBe(header(first, 'last-modified'));
    const ims = await request(pub.app, '/reviews.json', { 'if-modified-since': header(first, 'last-modified')! });
    expect(ims.status).toBe(200);
    // The entity tag still validates the current content.
    const inm = await request(pub.app, '/reviews.json', { 'if-none-match': header(second, 'etag')! });
    expect(inm.status).toBe(304);
  });
});
