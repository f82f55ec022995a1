import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNPUBLISHED_IDS } from '../support/fixture.js';
import { createMcpTestApp, INITIALIZE, legacyHeaders, rpc, type McpTestApp } from './mcp-harness.js';

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
interface ListedTool {
  name: string;
  inputSchema: { type: string; properties?: Record<string, unknown>; patternProperties?: Record<string, unknown> };
  outputSchema: object;
  annotations: Record<string, unknown>;
}

/** Every tool against its REST twin, in process (contract §5: "the two can never disagree"). */
describe('MCP tools', () => {
  let t: McpTestApp;
  let sessionId = '';
  let nextId = 10;

  beforeAll(async () => {
    t = await createMcpTestApp();
    const init = await t.app.inject({ method: 'POST', url: '/mcp', headers: legacyHeaders(), payload: INITIALIZE });
    sessionId = String(init.headers['mcp-session-id']);
  });
  afterAll(async () => t.close());

  async function request<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const r = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: legacyHeaders(sessionId),
      payload: rpc(nextId++, method, params),
    });
    expect(r.statusCode).toBe(200);
    const body = r.json() as { result?: T; error?: unknown };
    if (!body.result) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    const tool = body.result as Partial<ToolResult>;
    // structuredContent goes out as the very bytes of the text block (contract §5), not just an equal value.
    if (tool.structuredContent) expect(r.body).toContain(`"structuredContent":${tool.content![0]!.text}`);
    return body.result;
  }
  const call = (name: string, args: Record<string, unknown>) => request<ToolResult>('tools/call', { name, arguments: args });
  const rest = async (url: string) => {
    const r = await t.app.inject({ method: 'GET', url });
    return { status: r.statusCode, body: r.json() as Record<string, unknown>, raw: r.body };
  };
  /** The success payload, checked to be the same JSON as text and as structuredContent. */
  function payload(res: ToolResult): Record<string, unknown> {
    expect(res.isError, res.content[0]?.text).toBeFalsy();
    expect(JSON.parse(res.content[0]!.text)).toEqual(res.structuredContent);
    return res.structuredContent!;
  }
  function errorBody(res: ToolResult): { issues?: unknown[] } {
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toBeUndefined();
    return JSON.parse(res.content[0]!.text) as { issues?: unknown[] };
  }

  it('lists five read-only tools with object input and output schemas', async () => {
    const { tools } = await request<{ tools: ListedTool[] }>('tools/list');
    expect(tools.map((x) => x.name)).toEqual(['get_business', 'search_reviews', 'get_review', 'get_reviews_since', 'get_insights']);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(tool.inputSchema.type).toBe('object');
      expect((tool.outputSchema as { type: string }).type).toBe('object');
    }
    const search = tools.find((x) => x.name === 'search_reviews')!;
    // `properties` are exactly the REST search parameters; MCP's own `fields` is declared beside them.
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(
      ['cursor', 'limit', 'mentions_service', 'mentions_technician', 'min_rating', 'query', 'rating', 'since', 'sort', 'until'].sort(),
    );
    expect(Object.keys(search.inputSchema.patternProperties ?? {})).toEqual(['^fields$']);
    // A client that validates arguments against the schema, even a closed one, accepts `fields` and rejects a bad name.
    const ajv = new Ajv2020.default({ strict: false });
    const validate = ajv.compile({ ...search.inputSchema, additionalProperties: false });
    expect(validate({ rating: 5, fields: ['id', 'text'] })).toBe(true);
    expect(validate({ rating: 5, fields: ['password'] })).toBe(false);
    expect(validate({ rating: 5, field: ['id'] })).toBe(false);
  });

  it('get_business, get_review, get_reviews_since and get_insights equal their REST twins', async () => {
    const doc = (await rest('/reviews.json')).body as { business: unknown; aggregate_rating: unknown; reviews: { id: string }[] };
    expect(payload(await call('get_business', {}))).toEqual({ business: doc.business, aggregate_rating: doc.aggregate_rating });
    for (const { id } of doc.reviews.slice(0, 5))
      expect(payload(await call('get_review', { id }))).toEqual((await rest(`/api/reviews/${encodeURIComponent(id)}`)).body);
    for (const date of ['2024-01-01', '2025-01-01', '2024-02-29', '2099-01-01']) {
      const since = (await rest(`/api/reviews/since/${date}`)).body as { count: number; reviews: unknown[] };
      // Contract §5: pages of 20 by default, next_cursor to the next; the pages together are the REST answer.
      const pages: unknown[] = [];
      let cursor: string | null | undefined;
      do {
        const page = payload(await call('get_reviews_since', { date, ...(cursor ? { cursor } : {}) })) as {
          reviews: unknown[];
          count: number;
          total: number;
          next_cursor: string | null;
        };
        expect(page).toMatchObject({ since: date, count: page.reviews.length, total: since.count });
        expect(page.count).toBe(Math.min(20, since.count - pages.length));
        pages.push(...page.reviews);
        cursor = page.next_cursor;
      } while (cursor);
      expect(pages).toEqual(since.reviews);
      const capped = payload(await call('get_reviews_since', { date, limit: 2 }));
      expect(capped).toMatchObject({
        since: date,
        count: Math.min(2, since.count),
        total: since.count,
        reviews: since.reviews.slice(0, 2),
      });
    }
    const insights = (await rest('/insights.json')).body;
    const compact = JSON.parse(JSON.stringify(insights), (key, value: unknown) => (key === 'review_ids' ? undefined : value)) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(insights)).toContain('"review_ids"');
    expect(payload(await call('get_insights', {}))).toEqual(compact);
    expect(payload(await call('get_insights', { include_review_ids: true }))).toEqual(insights);
    for (const section of ['aspects', 'entities', 'topics', 'faq', 'summary']) {
      expect(payload(await call('get_insights', { section }))).toEqual({ [section]: compact[section] ?? null });
      expect(payload(await call('get_insights', { section, include_review_ids: true }))).toEqual({ [section]: insights[section] ?? null });
    }
  });

  it('fields returns only the requested review fields; an unknown field name is a tool error naming fields', async () => {
    const search = payload(await call('search_reviews', { rating: 5, limit: 3, fields: ['text', 'id'] })) as { reviews: object[] };
    const full = (await rest('/api/reviews/search?rating=5&limit=3')).body as { reviews: { id: string; text: string }[] };
    expect(search.reviews).toEqual(full.reviews.map((r) => ({ id: r.id, text: r.text })));
    const since = payload(await call('get_reviews_since', { date: '2024-01-01', limit: 2, fields: ['id', 'date'] })) as {
      reviews: object[];
    };
    expect(since.reviews.map((r) => Object.keys(r))).toEqual([
      ['id', 'date'],
      ['id', 'date'],
    ]);
    for (const name of ['search_reviews', 'get_reviews_since'])
      expect(errorBody(await call(name, { date: '2024-01-01', fields: ['id', 'password'] })).issues).toMatchObject([
        { path: ['fields', 1] },
      ]);
  });

  it('unknown and unpublished reviews are tool errors', async () => {
    for (const id of ['no-such-review', ...UNPUBLISHED_IDS]) expect(errorBody(await call('get_review', { id })).issues).toBeUndefined();
  });

  it('invalid arguments are tool errors with the REST issues', async () => {
    for (const date of ['2023-02-29', 'yesterday']) {
      const restIssues = (await rest(`/api/reviews/since/${date}`)).body.issues;
      expect(errorBody(await call('get_reviews_since', { date })).issues).toEqual(restIssues);
    }
    expect(errorBody(await call('get_reviews_since', { date: '2024-01-01', limit: 0 })).issues).toMatchObject([{ path: ['limit'] }]);
    expect(errorBody(await call('get_insights', { section: 'nonsense' })).issues).toMatchObject([{ path: ['section'] }]);
  });

  it('search_reviews equals GET /api/reviews/search for random parameters, errors included', async () => {
    // Mostly valid values, so that both answers (200 and 400) are compared often.
    const mostly = <T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<T>) =>
      fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: invalid });
    const params = fc.record(
      {
        rating: mostly(fc.integer({ min: 1, max: 5 }), fc.constantFrom(0, 6)),
        min_rating: mostly(fc.constantFrom(1, 2.5, 3, 4.5, 5), fc.constantFrom(0.5, 5.5)),
        since: mostly(fc.constantFrom('2024-06-01', '2025-01-01', '2025-04-01'), fc.constant('2025-02-30')),
        until: mostly(fc.constantFrom('2024-12-31', '2025-03-31', '2026-01-01'), fc.constant('2025-13-01')),
        query: fc.constantFrom('great', 'OK', 'é', 'drain', '&<', 'zzz'),
        mentions_technician: fc.constantFrom('mike', 'Mike Rodriguez', 'MIKEY', 'nobody'),
        mentions_service: fc.constantFrom('drain-cleaning', 'ac-repair', 'nope'),
        limit: mostly(fc.integer({ min: 1, max: 100 }), fc.constantFrom(0, 101)),
        sort: mostly(fc.constantFrom('newest', 'oldest', 'highest', 'lowest'), fc.constant('random')),
        cursor: mostly(fc.constant(undefined), fc.constant('not-a-cursor')),
      },
      { requiredKeys: [] },
    );
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(params, async (args) => {
        const present = Object.entries(args).filter(([, v]) => v !== undefined);
        const qs = new URLSearchParams(present.map(([k, v]): [string, string] => [k, String(v)])).toString();
        const res = await call('search_reviews', Object.fromEntries(present));
        const r = await rest(`/api/reviews/search?${qs}`);
        if (r.status === 200) {
          answered++;
          expect(payload(res)).toEqual(r.body);
          expect(res.content[0]!.text).toBe(r.raw);
        } else {
          expect(r.status).toBe(400);
          expect(errorBody(res).issues).toEqual(r.body.issues);
        }
      }),
      { numRuns: 150, seed: 20260728 },
    );
    // Both outcomes must be exercised, or the property proves little.
    expect(answered).toBeGreaterThan(20);
    expect(answered).toBeLessThan(130);
  });

  it('search_reviews pages with next_cursor like REST', async () => {
    const first = payload(await call('search_reviews', { limit: 3, sort: 'oldest' }));
    const second = payload(await call('search_reviews', { limit: 3, sort: 'oldest', cursor: first.next_cursor }));
    const both = (await rest('/api/reviews/search?limit=6&sort=oldest')).body.reviews as unknown[];
    expect([...(first.reviews as unknown[]), ...(second.reviews as unknown[])]).toEqual(both);
  });

  it('structuredContent validates against each outputSchema (JSON Schema 2020-12)', async () => {
    const { tools } = await request<{ tools: ListedTool[] }>('tools/list');
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const samples: [string, Record<string, unknown>][] = [
      ['get_business', {}],
      ['search_reviews', { limit: 100 }],
      ['get_review', { id: ((await rest('/reviews.json')).body.reviews as { id: string }[])[0]!.id }],
      ['get_reviews_since', { date: '2020-01-01' }],
      ['get_insights', {}],
      ['get_insights', { section: 'summary' }],
    ];
    for (const [name, args] of samples) {
      const validate = ajv.compile(tools.find((x) => x.name === name)!.outputSchema);
      const ok = validate(payload(await call(name, args)));
      expect(ok, `${name}: ${JSON.stringify(validate.errors?.slice(0, 2))}`).toBe(true);
    }
  });

  it('resources list the four documents by absolute URL and read back the served bytes', async () => {
    const { resources } = await request<{ resources: { uri: string; mimeType: string }[] }>('resources/list');
    const paths = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'];
    expect(resources.map((r) => r.uri)).toEqual(paths.map((p) => `http://127.0.0.1${p}`));
    for (const p of paths) {
      const { contents } = await request<{ contents: { uri: string; text: string }[] }>('resources/read', { uri: `http://127.0.0.1${p}` });
      expect(contents[0]!.text).toBe((await t.app.inject({ method: 'GET', url: p })).body);
    }
    const missing = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: legacyHeaders(sessionId),
      payload: rpc(99, 'resources/read', { uri: 'http://127.0.0.1/nope' }),
    });
    expect(missing.json()).toMatchObject({ error: { code: -32602 } });
  });

  it('prompts list and render', async () => {
    const { prompts } = await request<{ prompts: { name: string; description: string }[] }>('prompts/list');
    expect(prompts.length).toBeGreaterThan(0);
    for (const p of prompts) expect(p.description).toBeTruthy();
    const got = await request<{ messages: { content: { text: string } }[] }>('prompts/get', {
      name: 'customer_feedback',
      arguments: { about: 'drains' },
    });
    expect(got.messages[0]!.content.text).toContain('drains');
  });
});
