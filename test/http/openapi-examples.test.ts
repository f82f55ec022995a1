import { readFileSync, writeFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import prettier from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetState } from '../../src/domain/ports.js';
import type { ServiceUrls } from '../../src/domain/urls.js';
import { demoExamples, EXAMPLE_REQUESTS } from '../../src/http/openapi-examples.js';
import { readDemoState } from '../../src/server.js';
import { createTestApp, json, request } from './app-harness.js';

/**
 * The OpenAPI description's examples are what the server answers over the bundled demo: an app over the
 * demo (the inline insights engine included) is asked the same, and every example must equal its
 * answer (whole documents cut to their first review, insights to the first of every list).
 */

interface Content {
  example?: unknown;
}
interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, Content> }>;
}
type Paths = Record<string, Record<string, Operation>>;

let demo: DatasetState;
let app: FastifyInstance;
let urls: ServiceUrls;
let paths: Paths;
let newest: { id: string; date: string };

beforeAll(async () => {
  demo = await readDemoState();
  ({ app, urls } = await createTestApp(demo));
  paths = json<{ paths: Paths }>(await request(app, '/.well-known/openapi.json')).paths;
  newest = json<{ reviews: { id: string; date: string }[] }>(await request(app, '/reviews.json')).reviews[0]!;
}, 120_000);
afterAll(async () => {
  await app.close();
});

function examplesOf(operationId: string, status: string): [string, unknown][] {
  for (const item of Object.values(paths))
    for (const op of Object.values(item))
      if (op.operationId === operationId)
        return Object.entries(op.responses[status]?.content ?? {}).map(([media, c]) => [media, c.example]);
  throw new Error(`no operation ${operationId}`);
}

/** The operations with an example in any media type of their 200 response. */
function withOkExamples(described: Paths): string[] {
  return Object.values(described)
    .flatMap((item) => Object.values(item))
    .filter((op) => Object.values(op.responses['200']?.content ?? {}).some((c) => c.example !== undefined))
    .map((op) => op.operationId);
}

/** Every list in a value cut to its first element, as the insights example is. */
function firstOfEach(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 1).map(firstOfEach);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, firstOfEach(v)]));
}

const answer = async (url: string, accept?: string) => (await request(app, url, accept ? { accept } : {})).body;
const withNewest = (template: string, value: string) => template.replace('{newest}', encodeURIComponent(value));

/** Each 200 example's operation and what the demo app answers for it, cut as the example is. */
const SERVED: Record<string, (media: string) => Promise<unknown>> = {
  getReviewsDataset: async () => {
    const doc = JSON.parse(await answer('/reviews.json')) as { reviews: unknown[] };
    return { ...doc, reviews: doc.reviews.slice(0, 1) };
  },
  getJsonFeed: async (media) => {
    const feed = JSON.parse(await answer('/api/feed.json', media)) as { items: unknown[] };
    return { ...feed, items: feed.items.slice(0, 1) };
  },
  getAtomFeed: async () => {
    const xml = await answer('/feed.xml');
    const first = xml.indexOf('</entry>') + '</entry>'.length;
    return xml.slice(0, first) + xml.slice(xml.lastIndexOf('</entry>') + '</entry>'.length);
  },
  getInsights: async () => firstOfEach(JSON.parse(await answer('/insights.json'))),
  searchReviews: async () => JSON.parse(await answer(EXAMPLE_REQUESTS.searchReviews)),
  getReviewsSince: async () => JSON.parse(await answer(withNewest(EXAMPLE_REQUESTS.getReviewsSince, newest.date))),
  getReview: async () => JSON.parse(await answer(withNewest(EXAMPLE_REQUESTS.getReview, newest.id))),
};

const INSIGHTS_EXAMPLE_FILE = new URL('../../src/http/insights-example.ts', import.meta.url);

/**
 * Writes the insights example's new value into src/http/insights-example.ts (its comment kept),
 * formatted as the repository is: `UPDATE_OPENAPI_EXAMPLES=1 npx vitest run test/http/openapi-examples.test.ts`
 * after a retrained model or a changed report.
 */
async function recordInsightsExample(value: unknown): Promise<void> {
  const file = INSIGHTS_EXAMPLE_FILE.pathname;
  const old = readFileSync(file, 'utf8');
  const head = old.slice(0, old.indexOf('export const INSIGHTS_EXAMPLE'));
  const text = `${head}export const INSIGHTS_EXAMPLE = ${JSON.stringify(value, null, 2)};\n`;
  writeFileSync(file, await prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file }));
}

describe('the OpenAPI examples are the demo server’s answers', () => {
  it('every 200 example of a GET operation is checked here', () => {
    expect(withOkExamples(paths).sort()).toEqual(Object.keys(SERVED).sort());
  });

  for (const [operationId, served] of Object.entries(SERVED)) {
    it(`${operationId}: each media type's example is the answer`, async () => {
      const examples = examplesOf(operationId, '200');
      expect(examples.length).toBeGreaterThan(0);
      for (const [media, example] of examples) {
        const answer = await served(media);
        // The insights example is a value in src/http/insights-example.ts: see recordInsightsExample.
        if (operationId === 'getInsights' && process.env.UPDATE_OPENAPI_EXAMPLES === '1') await recordInsightsExample(answer);
        else expect(example, `${operationId} ${media} (UPDATE_OPENAPI_EXAMPLES=1 records the insights example)`).toEqual(answer);
      }
    });
  }

  it('the examples of errors are the problems the routes answer with', async () => {
    const cases: [string, string, string][] = [
      ['searchReviews', '400', '/api/reviews/search?rating=9'],
      ['getReviewsSince', '400', '/api/reviews/since/2025-02-30'],
      ['getReview', '404', '/api/reviews/no-such-review'],
    ];
    for (const [operationId, status, url] of cases) {
      const served = await request(app, url);
      expect(served.status, url).toBe(Number(status));
      expect(examplesOf(operationId, status), url).toEqual([['application/json', JSON.parse(served.body)]]);
    }
  });

  it('an example computed from other data is told apart', async () => {
    const edited = demo.reviews.map((r) => (r.id === newest.id ? { ...r, text: `${r.text} (edited)` } : r));
    const other = await demoExamples({ ...demo, reviews: edited }, urls);
    expect(other.get('getReview')).not.toEqual(await SERVED.getReview!('application/json'));
    expect(other.get('getReviewsSince')).not.toEqual(await SERVED.getReviewsSince!('application/json'));
    // The same data gives the served answers.
    const same = await demoExamples(demo, urls);
    expect(same.get('getReview')).toEqual(await SERVED.getReview!('application/json'));
  });
});

describe('the OpenAPI description without the demo dataset', () => {
  it('is served without examples, and the failure is read once, not on every request', async () => {
    let reads = 0;
    const exampleData = () => {
      reads++;
      return Promise.reject(new Error('examples/demo/dataset.json: no such file'));
    };
    const { app } = await createTestApp(undefined, { exampleData });
    try {
      for (let i = 0; i < 3; i++) {
        const served = await request(app, '/.well-known/openapi.json');
        expect(served.status).toBe(200);
        expect(withOkExamples(json<{ paths: Paths }>(served).paths)).toEqual([]);
      }
      expect(reads).toBe(1);
    } finally {
      await app.close();
    }
  });
});
