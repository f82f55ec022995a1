import { withDecodedCursor } from '../../src/domain/search-query.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../../src/domain/business.js';
import { compareNewest, comparatorFor } from '../../src/domain/review-order.js';
import type { Review } from '../../src/domain/review.js';
import { SORTS, type SearchParams } from '../../src/domain/search-params.js';
import { createSearchIndex } from '../../src/snapshot/search-index.js';

const business = BusinessSchema.parse({
  id: 'b',
  name: 'B',
  technicians: [
    { id: 't1', name: 'Ann Lee', aliases: ['Annie'] },
    { id: 't2', name: 'Bo Chen', aliases: ['Bo'] },
    { id: 't3', name: 'Cy Diaz', aliases: [] },
  ],
  services: [
    { id: 's1', name: 'Drain', aliases: [] },
    { id: 's2', name: 'Heater', aliases: [] },
  ],
});
const techs = business.technicians;
const WORDS = ['late', 'Great', 'fair price', 'ÉTÉ', '%', '_', 'no'];

const reviewArb = fc.record({
  day: fc.integer({ min: 1, max: 12 }),
  rating: fc.integer({ min: 1, max: 5 }),
  minute: fc.integer({ min: 0, max: 3 }),
  words: fc.subarray(WORDS),
  title: fc.option(fc.constantFrom('Late again', 'Great'), { nil: null }),
  techs: fc.subarray(['t1', 't2', 't3']),
  services: fc.subarray(['s1', 's2']),
});

type RawReview = typeof reviewArb extends fc.Arbitrary<infer T> ? T : never;

function toReviews(raw: RawReview[]): Review[] {
  const reviews = raw.map((r, i): Review => ({
    id: `r${String(i).padStart(3, '0')}`,
    date: `2024-03-${String(r.day).padStart(2, '0')}`,
    rating: r.rating,
    title: r.title,
    text: r.words.join(' '),
    language: 'en',
    author: { name: 'X', location: null },
    source: { platform: 'google', url: null },
    verified: true,
    mentions: {
      technicians: r.techs.map((id) => ({ id, name: techs.find((t) => t.id === id)!.name })),
      services: r.services.map((id) => ({ id, name: id })),
      service_areas: [],
    },
    response: null,
    updated_at: `2024-04-01T00:0${r.minute}:00Z`,
  }));
  return reviews.sort(compareNewest);
}

const paramsArb: fc.Arbitrary<SearchParams> = fc.record(
  {
    rating: fc.integer({ min: 1, max: 5 }),
    min_rating: fc.constantFrom(1, 2.5, 4, 5),
    since: fc.integer({ min: 1, max: 12 }).map((d) => `2024-03-${String(d).padStart(2, '0')}`),
    until: fc.integer({ min: 6, max: 14 }).map((d) => `2024-03-${String(d).padStart(2, '0')}`),
    query: fc.constantFrom('late', 'GREAT', 'été', '%', 'price', 'zzz', 'a'),
    mentions_technician: fc.constantFrom('t1', 'ANNIE', 'bo chen', 'Bo', 'cy diaz', 'nobody'),
    mentions_service: fc.constantFrom('s1', 's2', 'S1', 'none'),
    limit: fc.integer({ min: 1, max: 7 }),
    sort: fc.constantFrom(...SORTS),
  },
  { requiredKeys: [] },
);

/** The plain reading of contract §4, for comparison with the indexed implementation. */
function reference(reviews: Review[], p: SearchParams): Review[] {
  const techIds =
    p.mentions_technician === undefined
      ? null
      : techs
          .filter((t) => [t.id, t.name, ...t.aliases].some((k) => k.toLowerCase() === p.mentions_technician!.toLowerCase()))
          .map((t) => t.id);
  const q = p.query?.toLowerCase();
  return reviews
    .filter(
      (r) =>
        (p.rating === undefined || r.rating === p.rating) &&
        (p.min_rating === undefined || r.rating >= p.min_rating) &&
        (p.since === undefined || r.date >= p.since) &&
        (p.until === undefined || r.date <= p.until) &&
        (q === undefined || r.text.toLowerCase().includes(q) || (r.title ?? '').toLowerCase().includes(q)) &&
        (techIds === null || r.mentions.technicians.some((t) => techIds.includes(t.id))) &&
        (p.mentions_service === undefined || r.mentions.services.some((s) => s.id === p.mentions_service)),
    )
    .sort(comparatorFor(p.sort ?? 'newest'));
}

describe('search index', () => {
  it('finds exactly what a naive filter finds, in the contract order, over every page', () => {
    fc.assert(
      fc.property(fc.array(reviewArb, { maxLength: 100 }), paramsArb, (raw, params) => {
        const reviews = toReviews(raw);
        const index = createSearchIndex(business, reviews);
        const expected = reference(reviews, params).map((r) => r.id);
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 100; page++) {
          const query = withDecodedCursor({ ok: true, value: { ...params, ...(cursor ? { cursor } : {}) } });
          expect(query.ok).toBe(true);
          if (!query.ok) return;
          const page = index.search(query.value);
          expect(page.total).toBe(expected.length);
          expect(page.positions.length).toBeLessThanOrEqual(params.limit ?? 20);
          seen.push(...page.positions.map((pos) => reviews[pos]!.id));
          if (page.next_cursor === null) break;
          cursor = page.next_cursor;
        }
        expect(seen).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('echoes only the filters it applied', () => {
    const index = createSearchIndex(business, []);
    const page = index.search({ rating: 5, limit: 3, sort: 'oldest', query: 'x' });
    expect(page.filters).toEqual({ rating: 5, query: 'x' });
  });

  it('the edge rejects a cursor from another sort', () => {
    const reviews = toReviews([
      { day: 1, rating: 5, minute: 0, words: [], title: null, techs: [], services: [] },
      { day: 2, rating: 4, minute: 0, words: [], title: null, techs: [], services: [] },
    ]);
    const index = createSearchIndex(business, reviews);
    const cursor = index.search({ limit: 1 }).next_cursor;
    expect(cursor).toBeTruthy();
    expect(withDecodedCursor({ ok: true, value: { limit: 1, sort: 'newest', cursor: cursor! } }).ok).toBe(true);
    const other = withDecodedCursor({ ok: true, value: { limit: 1, sort: 'oldest', cursor: cursor! } });
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.issues[0]).toMatchObject({ path: ['cursor'], code: 'invalid_cursor' });
  });
});
