import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review } from '../../src/domain/review.js';
import { UNPUBLISHED_IDS } from '../support/fixture.js';
import { createTestApp, header, json, request } from './app-harness.js';
import { mentionsService, mentionsTechnician, ordered, publishedReviews, type SortName } from './expected.js';

interface SearchBody {
  reviews: Review[];
  count: number;
  total: number;
  limit: number;
  next_cursor: string | null;
  filters: Record<string, unknown>;
}
interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  issues?: { path: (string | number)[]; code: string; message: string }[];
}

let app: FastifyInstance;
const published = publishedReviews();

beforeAll(async () => {
  ({ app } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

async function search(qs: string): Promise<SearchBody> {
  const a = await request(app, `/api/reviews/search${qs}`);
  expect(a.status, a.body).toBe(200);
  expect(header(a, 'content-type')).toBe('application/json; charset=utf-8');
  return json<SearchBody>(a);
}

/** Every page of a search, following next_cursor. */
async function walk(qs: string, limit: number): Promise<{ ids: string[]; pages: SearchBody[] }> {
  const pages: SearchBody[] = [];
  let cursor: string | null = null;
  do {
    const sep = qs ? '&' : '';
    const page: SearchBody = await search(`?${qs}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    pages.push(page);
    cursor = page.next_cursor;
    expect(pages.length).toBeLessThan(50);
  } while (cursor !== null);
  return { ids: pages.flatMap((p) => p.reviews.map((r) => r.id)), pages };
}

async function problem(url: string): Promise<ProblemBody> {
  const a = await request(app, url);
  expect(a.status, a.body).toBe(400);
  expect(header(a, 'content-type')).toBe('application/json; charset=utf-8');
  const body = json<ProblemBody>(a);
  expect(body).toMatchObject({ status: 400, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  expect(body.issues?.length).toBeGreaterThan(0);
  for (const i of body.issues ?? []) expect(i).toEqual({ path: expect.any(Array), code: expect.any(String), message: expect.any(String) });
  return body;
}
const issueNames = (p: ProblemBody) => [...new Set((p.issues ?? []).map((i) => i.path[0]))].sort();

describe('GET /api/reviews/search', () => {
  it('answers every published review, newest first, 20 per page by default', async () => {
    const body = await search('');
    expect(body.total).toBe(published.length);
    expect(body.limit).toBe(20);
    expect(body.count).toBe(20);
    expect(body.reviews.map((r) => r.id)).toEqual(ordered(published).slice(0, 20));
    expect(typeof body.next_cursor).toBe('string');
    expect(body.filters).toEqual({});
  });

  it('filters by exact rating', async () => {
    for (const rating of [1, 2, 3, 4, 5]) {
      const body = await search(`?rating=${rating}&limit=100`);
      expect(body.reviews.map((r) => r.id)).toEqual(ordered(published.filter((r) => r.rating === rating)));
      expect(body.total).toBe(body.count);
      expect(body.next_cursor).toBeNull();
    }
  });

  it('filters by min_rating, inclusive, fractional values allowed', async () => {
    for (const min of ['1', '3', '3.5', '5']) {
      const body = await search(`?min_rating=${min}&limit=100`);
      expect(body.reviews.map((r) => r.id)).toEqual(ordered(published.filter((r) => r.rating >= Number(min))));
      expect(body.filters).toEqual({ min_rating: Number(min) });
    }
  });

  it('filters by since and until, both inclusive', async () => {
    const since = published[10]!.date;
    const until = published[25]!.date;
    const body = await search(`?since=${since}&until=${until}&limit=100`);
    const expected = published.filter((r) => r.date >= since && r.date <= until);
    expect(expected.length).toBeGreaterThan(10);
    expect(body.reviews.map((r) => r.id)).toEqual(ordered(expected));
    expect(body.reviews.some((r) => r.date === since)).toBe(true);
    expect(body.reviews.some((r) => r.date === until)).toBe(true);
    // One day, both bounds equal.
    const day = await search(`?since=${since}&until=${since}`);
    expect(day.reviews.map((r) => r.id)).toEqual(ordered(published.filter((r) => r.date === since)));
  });

  it('query is a case-insensitive substring of the title or the text', async () => {
    const body = await search('?query=sPaRkLiNg&limit=100');
    const expected = published.filter((r) => `${r.title ?? ''}\u0000${r.text}`.toLowerCase().includes('sparkling'));
    expect(expected.some((r) => r.title?.includes('SPARKLING') && !r.text.toLowerCase().includes('sparkling'))).toBe(true);
    expect(body.reviews.map((r) => r.id)).toEqual(ordered(expected));
    // Non-ASCII and markup are plain substrings.
    expect((await search('?query=pe%C3%B1asco')).reviews.map((r) => r.id)).toEqual(['r01']);
    expect((await search('?query=%3Cscript%3E')).reviews.map((r) => r.id)).toEqual(['r08']);
    expect((await search('?query=no-such-words-here')).total).toBe(0);
  });

  it('mentions_technician matches id, name or alias case-insensitively, and import tags', async () => {
    const cases: [string, string][] = [
      ['mike-r', 'mike-r'],
      ['Mike%20Rodriguez', 'mike-r'],
      ['MIKEY', 'mike-r'],
      ['jos%C3%A9', 'jose-g'],
      ['JOS%C3%89%20GARC%C3%8DA', 'jose-g'],
      ['ann-l', 'ann-l'],
    ];
    for (const [param, id] of cases) {
      const body = await search(`?mentions_technician=${param}&limit=100`);
      const expected = ordered(published.filter((r) => mentionsTechnician(r, id)));
      expect(expected.length).toBeGreaterThan(0);
      expect(
        body.reviews.map((r) => r.id),
        param,
      ).toEqual(expected);
      for (const r of body.reviews) expect(r.mentions.technicians.map((t) => t.id)).toContain(id);
    }
    // The tag-only review (r06) names nobody; "Joséphine" (r07) is not José.
    expect((await search('?mentions_technician=ann-l&limit=100')).reviews.map((r) => r.id)).toContain('r06');
    expect((await search('?mentions_technician=jose-g&limit=100')).reviews.map((r) => r.id)).not.toContain('r07');
    const unknown = await search('?mentions_technician=nobody');
    expect(unknown).toMatchObject({ total: 0, count: 0, reviews: [], next_cursor: null, filters: { mentions_technician: 'nobody' } });
  });

  it('mentions_service matches a service id; an unknown one matches nothing', async () => {
    for (const id of ['drain-cleaning', 'water-heater', 'ac-repair']) {
      const body = await search(`?mentions_service=${id}&limit=100`);
      const expected = ordered(published.filter((r) => mentionsService(r, id)));
      expect(expected.length).toBeGreaterThan(0);
      expect(
        body.reviews.map((r) => r.id),
        id,
      ).toEqual(expected);
    }
    expect((await search('?mentions_service=drain-cleaning&limit=100')).reviews.map((r) => r.id)).toContain('r06');
    expect((await search('?mentions_service=roofing')).total).toBe(0);
  });

  it('combines filters with AND', async () => {
    const since = published[30]!.date;
    const body = await search(`?min_rating=3&mentions_technician=ann-l&since=${since}&query=professional&limit=100`);
    const expected = published.filter(
      (r) => r.rating >= 3 && mentionsTechnician(r, 'ann-l') && r.date >= since && r.text.toLowerCase().includes('professional'),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(published.filter((r) => mentionsTechnician(r, 'ann-l')).length);
    expect(body.reviews.map((r) => r.id)).toEqual(ordered(expected));
    const none = await search('?rating=1&min_rating=2');
    expect(none.total).toBe(0);
  });

  it.each(['newest', 'oldest', 'highest', 'lowest'] as SortName[])('sort=%s orders as the contract says', async (sort) => {
    const body = await search(`?sort=${sort}&limit=100`);
    expect(body.reviews.map((r) => r.id)).toEqual(ordered(published, sort));
  });

  it('breaks same-date ties by updated_at (newest) and id', async () => {
    const ids = (await search('?limit=100')).reviews.map((r) => r.id);
    // r01/r02 share date and updated_at: id ascending. r03/r04 share the date; r04 was updated later.
    expect(ids.indexOf('r01')).toBeLessThan(ids.indexOf('r02'));
    expect(ids.indexOf('r04')).toBeLessThan(ids.indexOf('r03'));
    const oldest = (await search('?sort=oldest&limit=100')).reviews.map((r) => r.id);
    expect(oldest.slice(0, 4)).toEqual(['r01', 'r02', 'r03', 'r04']);
    const highest = (await search('?sort=highest&limit=100')).reviews.map((r) => r.id);
    expect(
      highest.slice(0, published.filter((r) => r.rating === 5).length).every((id) => published.find((r) => r.id === id)!.rating === 5),
    ).toBe(true);
  });

  it.each([
    ['', 7],
    ['sort=oldest', 3],
    ['sort=highest', 6],
    ['sort=lowest', 11],
    ['min_rating=2&sort=highest', 4],
    ['query=the', 2],
  ])('cursor walk over "%s" in pages of %i: no gaps, no duplicates', async (qs, limit) => {
    const { ids, pages } = await walk(qs, limit);
    const params = new URLSearchParams(qs);
    const sort = (params.get('sort') ?? 'newest') as SortName;
    const min = Number(params.get('min_rating') ?? 1);
    const q = params.get('query');
    const expected = ordered(
      published.filter((r) => r.rating >= min && (q === null || `${r.title ?? ''} ${r.text}`.toLowerCase().includes(q))),
      sort,
    );
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of pages) {
      expect(p.total).toBe(expected.length);
      expect(p.limit).toBe(limit);
      expect(p.count).toBe(p.reviews.length);
      expect(p.count).toBeLessThanOrEqual(limit);
    }
    expect(pages.slice(0, -1).every((p) => p.count === limit)).toBe(true);
  });

  it('a limit equal to the total gives one page with no cursor', async () => {
    const body = await search(`?limit=${published.length}`);
    expect(body.count).toBe(published.length);
    expect(body.next_cursor).toBeNull();
    expect((await search('?limit=100')).limit).toBe(100);
    expect((await search('?limit=1')).count).toBe(1);
  });

  it('echoes the normalized filters, with numbers as numbers', async () => {
    const body = await search(
      '?rating=4&min_rating=2.5&since=2025-01-01&until=2025-12-31&query=Sparkling&mentions_technician=Mike&mentions_service=drain-cleaning&limit=5&sort=oldest',
    );
    expect(body.filters).toEqual({
      rating: 4,
      min_rating: 2.5,
      since: '2025-01-01',
      until: '2025-12-31',
      query: 'Sparkling',
      mentions_technician: 'Mike',
      mentions_service: 'drain-cleaning',
    });
    expect(body.limit).toBe(5);
  });

  it('treats empty values as absent and ignores unknown parameters', async () => {
    const plain = await request(app, '/api/reviews/search');
    const empty = await request(
      app,
      '/api/reviews/search?rating=&min_rating=&since=&until=&query=&mentions_technician=&mentions_service=&limit=&sort=&cursor=',
    );
    expect(empty.status).toBe(200);
    expect(empty.body).toBe(plain.body);
    expect(json<SearchBody>(empty).filters).toEqual({});
    const unknown = await request(app, '/api/reviews/search?rating=5&foo=bar&page=2&order=asc');
    expect(unknown.body).toBe((await request(app, '/api/reviews/search?rating=5')).body);
  });

  it.each([
    ['rating=1&rating=2', ['rating']],
    ['query=a&query=b', ['query']],
    ['rating=abc', ['rating']],
    ['rating=2.5', ['rating']],
    ['rating=0', ['rating']],
    ['rating=6', ['rating']],
    ['min_rating=0.5', ['min_rating']],
    ['min_rating=5.01', ['min_rating']],
    ['min_rating=four', ['min_rating']],
    ['limit=0', ['limit']],
    ['limit=101', ['limit']],
    ['limit=1.5', ['limit']],
    ['limit=1e2', ['limit']],
    ['limit=-3', ['limit']],
    ['since=2025-02-30', ['since']],
    ['until=2025-13-01', ['until']],
    ['since=2025-1-1', ['since']],
    ['until=yesterday', ['until']],
    ['since=2025-06-01&until=2025-05-31', ['since']],
    ['sort=random', ['sort']],
    ['cursor=not-a-cursor', ['cursor']],
    ['cursor=%E2%9C%93', ['cursor']],
    [`query=${'x'.repeat(501)}`, ['query']],
    [`mentions_technician=${'y'.repeat(201)}`, ['mentions_technician']],
    ['rating=9&limit=0&since=2025-02-29&sort=up', ['limit', 'rating', 'since', 'sort']],
  ])('%s is a 400 naming %j', async (qs: string, names: string[]) => {
    const body = await problem(`/api/reviews/search?${qs}`);
    expect(issueNames(body)).toEqual(names);
  });

  it('rejects a cursor issued for another sort, and a tampered one', async () => {
    const first = await search('?sort=oldest&limit=5');
    const cursor = first.next_cursor!;
    expect(issueNames(await problem(`/api/reviews/search?sort=newest&limit=5&cursor=${cursor}`))).toEqual(['cursor']);
    const tampered = Buffer.from(JSON.stringify({ v: 1, s: 'oldest', d: 'x' })).toString('base64url');
    expect(issueNames(await problem(`/api/reviews/search?sort=oldest&cursor=${tampered}`))).toEqual(['cursor']);
  });
});

describe('GET /api/reviews/since/{date}', () => {
  it('answers every review dated on or after the date, newest first, inclusive', async () => {
    const date = published[17]!.date;
    const a = await request(app, `/api/reviews/since/${date}`);
    expect(a.status).toBe(200);
    expect(header(a, 'content-type')).toBe('application/json; charset=utf-8');
    const body = json<{ since: string; count: number; reviews: Review[] }>(a);
    const expected = ordered(published.filter((r) => r.date >= date));
    expect(body.since).toBe(date);
    expect(body.count).toBe(expected.length);
    expect(body.reviews.map((r) => r.id)).toEqual(expected);
    expect(body.reviews.at(-1)!.date).toBe(date);
  });

  it('answers everything for an early date and nothing for a future one', async () => {
    const all = json<{ count: number }>(await request(app, '/api/reviews/since/1999-01-01'));
    expect(all.count).toBe(published.length);
    const future = await request(app, '/api/reviews/since/2999-12-31');
    expect(future.status).toBe(200);
    expect(json(future)).toMatchObject({ since: '2999-12-31', count: 0, reviews: [] });
    // 2024 is a leap year.
    expect((await request(app, '/api/reviews/since/2024-02-29')).status).toBe(200);
  });

  it.each(['2025-02-29', '2025-02-30', '2025-13-01', '2025-00-10', '2025-1-01', '20250101', 'yesterday', '2025-01-01T00:00:00Z'])(
    '%s is a 400 naming date',
    async (date) => {
      const body = await problem(`/api/reviews/since/${encodeURIComponent(date)}`);
      expect(issueNames(body)).toEqual(['date']);
    },
  );
});

describe('GET /api/reviews/{id}', () => {
  it('answers { review } equal to the record in /reviews.json', async () => {
    const dataset = json<{ reviews: Review[] }>(await request(app, '/reviews.json'));
    for (const id of ['r01', 'r03', 'r40']) {
      const a = await request(app, `/api/reviews/${id}`);
      expect(a.status).toBe(200);
      expect(header(a, 'content-type')).toBe('application/json; charset=utf-8');
      expect(json(a)).toEqual({ review: dataset.reviews.find((r) => r.id === id) });
    }
  });

  it.each(['nope', 'R01', ...UNPUBLISHED_IDS])('%s is a 404 problem', async (id) => {
    const a = await request(app, `/api/reviews/${encodeURIComponent(id)}`);
    expect(a.status).toBe(404);
    expect(header(a, 'content-type')).toBe('application/json; charset=utf-8');
    const body = json<ProblemBody>(a);
    expect(body).toMatchObject({ status: 404, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
    // An unpublished id is answered exactly like an id that never existed.
    const never = await request(app, `/api/reviews/${encodeURIComponent(`${id}-never`)}`);
    expect(a.body).toBe(never.body.replace(`${id}-never`, id));
  });
});
