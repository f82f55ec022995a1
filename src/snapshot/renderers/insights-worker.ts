/**
 * Worker-thread entry: runs the insights engine off the main thread, so a full analysis (seconds at
 * 10k reviews) never delays a request. The engine and its review cache live here for the life of the
 * process; each message is one published view, each reply its insights document, or `unchanged` when
 * its inputs hash to the document the server already holds (issue 15: then the engine, its NLP
 * libraries and models are not even loaded).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { computeAggregate } from '../../domain/aggregate.js';
import type { Review } from '../../domain/review.js';
import { createServiceUrls } from '../../domain/urls.js';
import type { InsightsEngine } from '../../insights/engine.js';
import type { Taxonomy } from '../../insights/taxonomy.js';
import { insightsFingerprint, insightsInputHash } from './insights-input.js';
import type { InsightsReply, InsightsRequest } from './insights-protocol.js';

const { taxonomies } = workerData as { taxonomies: Taxonomy[] };
let fingerprint: string | null = null;
let engine: Promise<InsightsEngine> | null = null;

function loadEngine(): Promise<InsightsEngine> {
  const loading = Promise.all([import('../../insights/engine.js'), import('../../absa-models.js')]).then(([m, models]) =>
    m.createInsightsEngine({ taxonomies, models: models.readShippedModels() }),
  );
  // A failed load is tried again with the next view, as a crashed worker used to be replaced.
  loading.catch(() => (engine = null));
  return loading;
}

async function answer(msg: InsightsRequest): Promise<InsightsReply> {
  try {
    const inputHash = insightsInputHash((fingerprint ??= insightsFingerprint(taxonomies)), msg);
    if (inputHash === msg.knownHash) return { id: msg.id, ok: true, inputHash, unchanged: true };
    const e = await (engine ??= loadEngine());
    const reviews = JSON.parse(
      Buffer.from(msg.reviews.buffer, msg.reviews.byteOffset, msg.reviews.byteLength).toString('utf8'),
    ) as Review[];
    const view = { business: msg.business, reviews, aggregate: computeAggregate(reviews), updatedAt: msg.updatedAt };
    return { id: msg.id, ok: true, inputHash, body: JSON.stringify(e.compute({ ...view, urls: createServiceUrls(msg.baseUrl) })) };
  } catch (e) {
    return { id: msg.id, ok: false, error: (e as Error).stack ?? String(e) };
  }
}

// One message at a time, in order: the server matches replies by id, and the engine's cache is not reentrant.
let queue = Promise.resolve();
parentPort?.on('message', (msg: InsightsRequest) => {
  queue = queue.then(() => answer(msg)).then((reply) => parentPort?.postMessage(reply));
});
