import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REVIEW_FIELDS } from '../../src/domain/review-fields.js';
import { withDecodedCursor } from '../../src/domain/search-query.js';
import { searchReviews } from '../../src/mcp/tools.js';
import { searchReviews as restSearch } from '../../src/snapshot/queries.js';
import { searchParamsArb, searchSnapshotOf, searchTextsArb } from '../support/search-fixture.js';

const fieldsArb = fc.option(fc.uniqueArray(fc.constantFrom(...REVIEW_FIELDS), { minLength: 1 }), { nil: undefined });

/** `search_reviews` answers against the REST search: the same bytes, and structuredContent that serializes to them. */
describe('MCP search_reviews answers', () => {
  it('the text is the REST bytes (or their projection on fields) and structuredContent serializes to it, over every page', async () => {
    await fc.assert(
      fc.asyncProperty(searchTextsArb, searchParamsArb, fieldsArb, async (texts, params, fields) => {
        const snapshot = await searchSnapshotOf(texts);
        let cursor: string | undefined;
        for (let page = 0; page < 40; page++) {
          const query = withDecodedCursor({ ok: true, value: { ...params, ...(cursor ? { cursor } : {}) } });
          if (!query.ok) throw new Error('invalid cursor');
          const rest = restSearch(snapshot, query.value).json;
          const answer = searchReviews({ query: query.value, ...(fields ? { fields: new Set(fields) } : {}) }, snapshot);
          if (!answer.ok) throw new Error('no answer');
          expect(JSON.stringify(answer.structured)).toBe(answer.json);
          const parsed = JSON.parse(rest) as { reviews: Record<string, unknown>[]; next_cursor: string | null };
          const keep = new Set<string>(fields ?? REVIEW_FIELDS);
          const projected = parsed.reviews.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => keep.has(k))));
          expect(answer.json).toBe(fields ? JSON.stringify({ ...parsed, reviews: projected }) : rest);
          cursor = parsed.next_cursor ?? undefined;
          if (!cursor) break;
        }
      }),
      { numRuns: 100 },
    );
  });
});
