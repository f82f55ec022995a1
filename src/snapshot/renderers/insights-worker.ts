/**
 * Worker-thread entry: runs the insights engine off the main thread, so a full analysis (seconds at
 * 10k+ reviews) never stalls request handling. The engine and its per-review cache live here for the
 * life of the process; each message is one published view, each reply its insights document.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readShippedModels } from '../../absa-models.js';
import { createServiceUrls } from '../../domain/urls.js';
import { createInsightsEngine, type Taxonomy } from '../../insights/index.js';
import type { InsightsRequest, InsightsReply } from './insights-protocol.js';

const engine = createInsightsEngine({ taxonomies: (workerData as { taxonomies: Taxonomy[] }).taxonomies, models: readShippedModels() });

parentPort?.on('message', (msg: InsightsRequest) => {
  let reply: InsightsReply;
  try {
    const doc = engine.compute({ ...msg.view, urls: createServiceUrls(msg.baseUrl) });
    reply = { id: msg.id, ok: true, body: JSON.stringify(doc) };
  } catch (e) {
    reply = { id: msg.id, ok: false, error: (e as Error).stack ?? String(e) };
  }
  parentPort?.postMessage(reply);
});
