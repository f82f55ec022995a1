import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REVIEW_FIELDS } from '../domain/review-fields.js';
import { withDecodedCursor } from '../domain/search-query.js';
import { searchParamsArb, searchSnapshotOf, searchTextsArb } from '../../test/support/search-fixture.js';
import { DEFAULT_SEARCH_CACHE_BYTES, searchReviews, setSearchCacheBudget } from '../snapshot/queries.js';
import { keptSearchPage } from './search-page.js';

const fieldsArb = fc.option(fc.uniqueArray(fc.constantFrom(...REVIEW_FIELDS), { minLength: 1 }), { nil: undefined });

describe('MCP search_reviews answers (issue 15)', () => {
  it('the text is the REST bytes, and structuredContent serializes to exactly the text, over every page', async () => {
    await fc.assert(
      fc.asyncProperty(searchTextsArb, searchParamsArb, fieldsArb, async (t, params, fields) => {
        const snapshot = await searchSnapshotOf(t);
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
      fc.asyncProperty(
        searchTextsArb,
        fc.array(fc.tuple(searchParamsArb, fieldsArb), { minLength: 1, maxLength: 12 }),
        async (t, asked) => {
          const snapshot = await searchSnapshotOf(t);
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
        },
      ),
      { numRuns: 100 },
    );
  });
});
