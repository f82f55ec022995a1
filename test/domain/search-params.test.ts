import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidSearchParams, parseSearchArguments, parseSearchQuery, SearchParamsSchema } from '../../src/domain/search-params.js';

function paths(r: ReturnType<typeof parseSearchQuery>): string[] {
  return r.ok ? [] : r.issues.map((i) => String(i.path[0]));
}

describe('parseSearchQuery', () => {
  it('converts numbers and keeps strings', () => {
    const r = parseSearchQuery({ rating: '5', min_rating: '3.5', limit: '7', since: '2023-01-01', query: 'late', sort: 'oldest' });
    expect(r).toEqual({ ok: true, value: { rating: 5, min_rating: 3.5, limit: 7, since: '2023-01-01', query: 'late', sort: 'oldest' } });
  });
  it('treats empty values as absent and ignores unknown parameters', () => {
    expect(parseSearchQuery({ rating: '', query: '', cursor: '', foo: 'bar' })).toEqual({ ok: true, value: {} });
  });
  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ limit: 'abc' }, 'limit'],
    [{ limit: '1e1' }, 'limit'],
    [{ rating: '4.5' }, 'rating'],
    [{ rating: '6' }, 'rating'],
    [{ min_rating: '0.5' }, 'min_rating'],
    [{ min_rating: 'x' }, 'min_rating'],
    [{ since: '2025-02-30' }, 'since'],
    [{ until: '2024-1-1' }, 'until'],
    [{ sort: 'sideways' }, 'sort'],
    [{ rating: ['4', '5'] }, 'rating'],
  ])('rejects %o naming %s', (query, name) => {
    expect(paths(parseSearchQuery(query))).toContain(name);
  });
  it('lists every problem at once, each message naming its parameter', () => {
    const r = parseSearchQuery({ rating: '0', limit: '500', since: 'nope', query: ['a', 'b'] });
    expect(paths(r).sort()).toEqual(['limit', 'query', 'rating', 'since']);
    if (!r.ok) for (const i of r.issues) expect(i.message).toContain(String(i.path[0]));
  });
  it('rejects since after until', () => {
    expect(paths(parseSearchQuery({ since: '2024-05-01', until: '2024-04-01' }))).toEqual(['since']);
    expect(parseSearchQuery({ since: '2024-05-01', until: '2024-05-01' }).ok).toBe(true);
  });
});

describe('parseSearchArguments (MCP)', () => {
  it('takes JSON numbers and rejects numeric strings', () => {
    expect(parseSearchArguments({ rating: 5, limit: 3 })).toEqual({ ok: true, value: { rating: 5, limit: 3 } });
    expect(parseSearchArguments({ rating: '5' }).ok).toBe(false);
    expect(parseSearchArguments(undefined)).toEqual({ ok: true, value: {} });
  });
});

describe('isValidSearchParams (the schema-free path)', () => {
  it('accepts exactly what SearchParamsSchema accepts, with the same value', () => {
    // Mostly valid values, so that every key of an accepted object is exercised too.
    const mostly = <T>(valid: fc.Arbitrary<T>, edge: fc.Arbitrary<unknown>) =>
      fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: edge });
    const edges = (n: number) => fc.constantFrom(n - 1, n + 1, n - 0.5, n + 0.5, Number.NaN, Infinity, 2 ** 53, String(n));
    const str = (max: number) =>
      mostly(fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('x'.repeat(max), 'é'.repeat(max))), fc.constant('x'.repeat(max + 1)));
    const value = fc.record(
      {
        rating: mostly(fc.constantFrom(1, 3, 5), edges(5)),
        min_rating: mostly(fc.constantFrom(1, 3.25, 5), edges(1)),
        limit: mostly(fc.constantFrom(1, 20, 100), edges(100)),
        since: mostly(fc.constantFrom('2024-02-29', '2024-06-01'), fc.constantFrom('2023-02-29', '2024-1-1', 5)),
        until: mostly(fc.constantFrom('2024-05-31', '2024-06-01', '2024-12-31'), fc.constantFrom('2025-13-01', '')),
        query: str(500),
        mentions_technician: str(200),
        mentions_service: str(200),
        sort: mostly(fc.constantFrom('newest', 'oldest', 'highest', 'lowest'), fc.constantFrom('sideways', 1)),
        cursor: str(1000),
        other: mostly(fc.constant(undefined), fc.constant('x')),
      },
      { requiredKeys: [] },
    );
    let accepted = 0;
    fc.assert(
      fc.property(value, (p) => {
        const parsed = SearchParamsSchema.safeParse(p);
        const fast = isValidSearchParams(p);
        if (fast) accepted++;
        expect(fast).toBe(parsed.success && !('other' in p));
        if (fast) expect(parsed.data).toEqual(p);
      }),
      { numRuns: 2000 },
    );
    // Both outcomes must be exercised, or the property proves little.
    expect(accepted).toBeGreaterThan(20);
  });
});
