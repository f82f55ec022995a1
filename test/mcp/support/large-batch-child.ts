/**
 * Child process of large-batch.e2e.test.ts, run with a bounded heap: serves MCP over a large generated
 * snapshot in process and sends the requests that exhausted memory in the red-team run,
 * then prints one JSON line of what came back. A crash (heap out of memory) is the failure the test
 * looks for.
 */
import { loadConfig } from '../../../src/config.js';
import { createServiceUrls } from '../../../src/domain/urls.js';
import { datasetRenderer } from '../../../src/snapshot/renderers/dataset.js';
import { fixtureState } from '../../support/fixture.js';
import { createMcpTestApp, INITIALIZE, legacyHeaders, rpc } from '../mcp-harness.js';
import { renderSnapshot } from '../../support/renderers.js';

const count = Number(process.argv[2] ?? 10_000);
const state = fixtureState({ count });
// About 2 KB a review, as real reviews with owner responses are: 10,000 of them make a 24 MB dataset.
state.reviews = state.reviews.map((r) => ({ ...r, text: `${r.text} ${'Long review text. '.repeat(110)}` }));
const urls = createServiceUrls(loadConfig({ BASE_URL: 'http://127.0.0.1' }).BASE_URL);
const snapshot = await renderSnapshot(state, urls, [datasetRenderer]); // the dataset document only: no insights to wait for
const t = await createMcpTestApp({ snapshot });

const init = await t.app.inject({ method: 'POST', url: '/mcp', headers: legacyHeaders(), payload: INITIALIZE });
const headers = legacyHeaders(String(init.headers['mcp-session-id']));
const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/mcp', headers, payload: JSON.stringify(payload) });
const batch = (n: number, method: string, params: Record<string, unknown>) =>
  Array.from({ length: n }, (_, i) => rpc(i + 1, method, params));
const codes = (body: string) => {
  const parsed = JSON.parse(body) as unknown;
  return (Array.isArray(parsed) ? parsed : [parsed]).map((r: { error?: { code: number }; result?: { isError?: boolean } }) =>
    r.error ? r.error.code : r.result?.isError ? 'tool-error' : 'ok',
  );
};

// 1. The reproduction: a batch of 100 get_reviews_since from 2000-01-01 (every review, 100 times over).
const since100 = await post(batch(100, 'tools/call', { name: 'get_reviews_since', arguments: { date: '2000-01-01' } }));
// 2. The largest batch allowed, each asking for the largest page.
const since20 = await post(batch(20, 'tools/call', { name: 'get_reviews_since', arguments: { date: '2000-01-01', limit: 100 } }));
// 3. 32 concurrent batches reading the whole dataset as a resource.
const reads = await Promise.all(Array.from({ length: 32 }, () => post(batch(20, 'resources/read', { uri: urls.reviewsJson }))));
// 4. And the service still answers.
const search = await post(rpc(1, 'tools/call', { name: 'search_reviews', arguments: { rating: 5, limit: 3 } }));

console.log(
  JSON.stringify({
    datasetBytes: snapshot.documents.get('reviews.json')!.body.length,
    since100: { status: since100.statusCode, codes: codes(since100.body) },
    since20: { status: since20.statusCode, bytes: since20.body.length, codes: [...new Set(codes(since20.body))] },
    reads: { statuses: [...new Set(reads.map((r) => r.statusCode))], codes: [...new Set(reads.flatMap((r) => codes(r.body)))] },
    search: { status: search.statusCode, codes: codes(search.body) },
    heapUsedMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  }),
);
await t.close();
