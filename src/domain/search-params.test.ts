import { describe, expect, it } from 'vitest';
import { parseSearchArguments, parseSearchQuery } from './search-params.js';

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
