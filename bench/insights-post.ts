/**
 * Main-thread cost of handing a published view to the insights worker (it blocks requests): the structured
 * clone of the view's object graph (first), of the reviews' JSON strings (second), and the transfer of
 * one buffer of their JSON (now), whose encoding is done in time slices and reported apart (total).
 * Each is posted 3 times to an idle worker that drops it; the median of the synchronous postMessage call.
 *
 *   node --expose-gc --import tsx bench/insights-post.ts [--reviews 100000]
 */
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { BusinessSchema } from '../src/domain/business.js';
import { StoredReviewSchema } from '../src/domain/review.js';
import { createServiceUrls } from '../src/domain/urls.js';
import { writeReviewBytes } from '../src/snapshot/review-bytes.js';
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
const strings = await median(() =>
  worker.postMessage({
    id: 1,
    business: view.business,
    updatedAt: view.updatedAt,
    reviewJson,
    baseUrl: 'http://bench.test',
    knownHash: null,
  }),
);
let encodeMs = 0;
const now = await (async () => {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const e = performance.now();
    const bytes = (await writeReviewBytes(reviewJson, '[', ']')).document;
    encodeMs = performance.now() - e;
    const request = {
      id: 1,
      business: view.business,
      updatedAt: view.updatedAt,
      reviews: bytes,
      baseUrl: 'http://bench.test',
      knownHash: null,
    };
    await new Promise((r) => setTimeout(r, 1000));
    const t = performance.now();
    worker.postMessage(request, [bytes.buffer as ArrayBuffer]);
    runs.push(performance.now() - t);
  }
  return runs.sort((a, b) => a - b)[1]!;
})();
const mb = reviewJson.reduce((n, s) => n + s.length, 0) / 1e6;
console.log(
  JSON.stringify({
    reviews: view.reviews.length,
    json_mb: Number(mb.toFixed(1)),
    view_ms: Math.round(before),
    strings_ms: Math.round(strings),
    transfer_ms: Number(now.toFixed(2)),
    encode_ms_in_slices: Math.round(encodeMs),
  }),
);
await worker.terminate();
