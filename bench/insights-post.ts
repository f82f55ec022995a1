/**
 * Main-thread cost of handing a published view to the insights worker (issue 15): the structured clone
 * of the view's object graph (before) against the reviews' JSON strings the snapshot already holds (now).
 * Each is posted 3 times to an idle worker that drops it; the median of the synchronous postMessage call.
 *
 *   node --expose-gc --import tsx bench/insights-post.ts [--reviews 100000]
 */
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { BusinessSchema } from '../src/domain/business.js';
import { StoredReviewSchema } from '../src/domain/review.js';
import { createServiceUrls } from '../src/domain/urls.js';
import { buildView } from '../src/snapshot/snapshot.js';
import { generateLargeDataset } from './lib/dataset.js';

const { values } = parseArgs({ options: { reviews: { type: 'string', default: '100000' } } });
const ds = generateLargeDataset(Number(values.reviews));
const reviews = ds.reviews.map((r) =>
  StoredReviewSchema.parse({
    title: null,
    language: null,
    response: null,
    verified: true,
    hidden: false,
    mention_tags: { technicians: [], services: [], service_areas: [] },
    updated_at: '2026-01-01T00:00:00Z',
    source: { platform: 'google', url: null },
    ...r,
  }),
);
const view = buildView(
  { business: BusinessSchema.parse(ds.business), businessUpdatedAt: null, reviews, version: 1 },
  createServiceUrls('http://bench.test'),
);
const reviewJson = view.reviews.map((r) => JSON.stringify(r));
const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => {})', { eval: true });
const gc = (globalThis as { gc?: () => void }).gc;

async function median(post: () => void): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    gc?.();
    const t = performance.now();
    post();
    runs.push(performance.now() - t);
  }
  return runs.sort((a, b) => a - b)[1]!;
}

const { urls: _urls, ...rest } = view;
const before = await median(() => worker.postMessage({ id: 1, view: rest, baseUrl: 'http://bench.test' }));
const now = await median(() =>
  worker.postMessage({
    id: 1,
    business: view.business,
    updatedAt: view.updatedAt,
    reviewJson,
    baseUrl: 'http://bench.test',
    knownHash: null,
  }),
);
const mb = reviewJson.reduce((n, s) => n + s.length, 0) / 1e6;
console.log(
  JSON.stringify({
    reviews: view.reviews.length,
    json_mb: Number(mb.toFixed(1)),
    view_ms: Math.round(before),
    json_ms: Math.round(now),
    ratio: Number((before / now).toFixed(2)),
  }),
);
await worker.terminate();
