import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../domain/business.js';
import type { DatasetState } from '../domain/ports.js';
import { REVIEW_FIELDS } from '../domain/review-fields.js';
import { SORTS, type SearchParams } from '../domain/search-params.js';
import { withDecodedCursor } from '../domain/search-query.js';
import { createServiceUrls } from '../domain/urls.js';
import { DEFAULT_SEARCH_CACHE_BYTES, searchReviews, setSearchCacheBudget } from '../snapshot/queries.js';
import { buildSnapshot } from '../snapshot/snapshot.js';
import { keptSearchPage } from './search-page.js';

const business = BusinessSchema.parse({ id: 'b', name: 'B', technicians: [{ id: 'ann', name: 'Ann Lee', aliases: ['Ann'] }] });
const review = (id: string, day: number, rating: number, text: string) => ({
  id,
  date: `2024-05-${String(day).padStart(2, '0')}`,
  rating,
  title: day % 2 === 0 ? 'Été "quoted"' : null,
  text,
  language: 'en',
  author: { name: 'X.', location: null },
  source: { platform: 'google', url: null },
  verified: true,
  hidden: false,
  mention_tags: { technicians: [], services: [], service_areas: [] },
  response: day % 3 === 0 ? { text: 'Thanks\nagain', date: '2024-06-01' } : null,
  updated_at: `2024-06-${String(day).padStart(2, '0')}T00:00:00Z`,
});
const TEXTS = ['Ann was great, café au lait 😀', 'Late and rude.', 'Fair price \u2028 <b>', 'Ann fixed the drain \\ "fast"'];
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
const fieldsArb = fc.option(fc.uniqueArray(fc.constantFrom(...REVIEW_FIELDS), { minLength: 1 }), { nil: undefined });
const texts = fc.array(fc.constantFrom(...TEXTS), { minLength: 1, maxLength: 30 });

describe('MCP search_reviews answers (issue 15)', () => {
  it('the text is the REST bytes, and structuredContent serializes to exactly the text, over every page', async () => {
    await fc.assert(
      fc.asyncProperty(texts, paramsArb, fieldsArb, async (t, params, fields) => {
        const snapshot = await snapshotOf(t);
        let cursor: string | undefined;
        for (let page = 0; page < 40; page++) {
          const query = withDecodedCursor({ ok: true, value: { ...params, ...(cursor ? { cursor } : {}) } });
          if (!query.ok) throw new Error('invalid cursor');
          const rest = JSON.parse(searchReviews(snapshot, query.value).json) as {
            reviews: Record<string, unknown>[];
            next_cursor: string | null;
          };
          const { json, structured } = keptSearchPage(snapshot, query.value, fields);
          expect(JSON.stringify(structured)).toBe(json);
          if (!fields) expect(json).toBe(searchReviews(snapshot, query.value).json);
          else {
            const keep = new Set<string>(fields);
            const projected = rest.reviews.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => keep.has(k))));
            expect(json).toBe(JSON.stringify({ ...rest, reviews: projected }));
          }
          cursor = rest.next_cursor ?? undefined;
          if (!cursor) break;
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a kept answer is the answer computed afresh, whatever was asked before on the snapshot', async () => {
    await fc.assert(
      fc.asyncProperty(texts, fc.array(fc.tuple(paramsArb, fieldsArb), { minLength: 1, maxLength: 12 }), async (t, asked) => {
        const snapshot = await snapshotOf(t);
        for (const [params, fields] of asked) {
          const kept = keptSearchPage(snapshot, params, fields);
          expect(keptSearchPage(snapshot, params, fields)).toBe(kept);
          setSearchCacheBudget(0);
          try {
            const fresh = keptSearchPage(snapshot, params, fields);
            expect(fresh).not.toBe(kept);
            expect(fresh.json).toBe(kept.json);
          } finally {
            setSearchCacheBudget(DEFAULT_SEARCH_CACHE_BYTES);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
