import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../domain/business.js';
import type { DatasetState } from '../domain/ports.js';
import { SORTS, type SearchParams } from '../domain/search-params.js';
import { withDecodedCursor } from '../domain/search-query.js';
import { createServiceUrls } from '../domain/urls.js';
import { DEFAULT_SEARCH_CACHE_BYTES, searchCacheBytes, searchRepresentation, searchReviews, setSearchCacheBudget } from './queries.js';
import { buildSnapshot } from './snapshot.js';

const business = BusinessSchema.parse({ id: 'b', name: 'B', technicians: [{ id: 'ann', name: 'Ann Lee', aliases: ['Ann'] }] });
const review = (id: string, day: number, rating: number, text: string) => ({
  id,
  date: `2024-05-${String(day).padStart(2, '0')}`,
  rating,
  title: day % 2 === 0 ? 'Été' : null,
  text,
  language: 'en',
  author: { name: 'X.', location: null },
  source: { platform: 'google', url: null },
  verified: true,
  hidden: false,
  mention_tags: { technicians: [], services: [], service_areas: [] },
  response: null,
  updated_at: `2024-06-${String(day).padStart(2, '0')}T00:00:00Z`,
});
const TEXTS = ['Ann was great, café au lait 😀', 'Late and rude.', 'Fair price', 'Ann fixed the drain'];
const state = (texts: string[]): DatasetState => ({
  business,
  businessUpdatedAt: '2024-05-01T00:00:00Z',
  reviews: texts.map((text, i) => review(`r${i}`, (i % 28) + 1, (i % 5) + 1, text)),
  version: 1,
});
const urls = createServiceUrls('http://example.test');
const snapshotOf = async (texts: string[]) => (await buildSnapshot(state(texts), urls, [])).snapshot;

const paramsArb: fc.Arbitrary<SearchParams> = fc.record(
  {
    min_rating: fc.constantFrom(1, 2.5, 4),
    query: fc.constantFrom('ann', 'ÉTÉ', 'late', 'zzz'),
    mentions_technician: fc.constantFrom('ann', 'nobody'),
    limit: fc.integer({ min: 1, max: 5 }),
    sort: fc.constantFrom(...SORTS),
  },
  { requiredKeys: [] },
);
const texts = fc.array(fc.constantFrom(...TEXTS), { minLength: 1, maxLength: 30 });

describe('search answers (issue 15)', () => {
  it('REST sends the bytes MCP answers, over every page', async () => {
    await fc.assert(
      fc.asyncProperty(texts, paramsArb, async (t, params) => {
        const snapshot = await snapshotOf(t);
        let cursor: string | undefined;
        for (let page = 0; page < 40; page++) {
          const query = withDecodedCursor({ ok: true, value: { ...params, ...(cursor ? { cursor } : {}) } });
          if (!query.ok) throw new Error('invalid cursor');
          const json = searchReviews(snapshot, query.value).json;
          expect(searchRepresentation(snapshot, query.value).body.toString('utf8')).toBe(json);
          cursor = (JSON.parse(json) as { next_cursor: string | null }).next_cursor ?? undefined;
          if (!cursor) break;
        }
      }),
      { numRuns: 100 },
    );
  });

  it('the ETag is equal exactly when the bytes are, across independently built snapshots', async () => {
    await fc.assert(
      fc.asyncProperty(texts, texts, paramsArb, paramsArb, async (ta, tb, pa, pb) => {
        const a = searchRepresentation(await snapshotOf(ta), pa);
        const b = searchRepresentation(await snapshotOf(tb), pb);
        expect(a.etag === b.etag).toBe(a.body.equals(b.body));
        expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      }),
      { numRuns: 200 },
    );
  });

  it('a cached answer is the answer computed afresh, whatever was asked before on the snapshot', async () => {
    await fc.assert(
      fc.asyncProperty(texts, fc.array(paramsArb, { minLength: 1, maxLength: 12 }), async (t, asked) => {
        const snapshot = await snapshotOf(t);
        for (const params of asked) {
          const cached = searchRepresentation(snapshot, params);
          setSearchCacheBudget(0);
          try {
            const fresh = searchRepresentation(snapshot, params);
            expect(fresh).not.toBe(cached);
            expect(cached.body.equals(fresh.body)).toBe(true);
            expect(cached.etag).toBe(fresh.etag);
          } finally {
            setSearchCacheBudget(DEFAULT_SEARCH_CACHE_BYTES);
          }
        }
        expect(searchCacheBytes(snapshot)).toBeGreaterThan(0);
      }),
      { numRuns: 100 },
    );
  });
});
