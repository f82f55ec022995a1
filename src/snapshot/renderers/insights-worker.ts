/**
 * Worker-process entry (forked by insights-worker-client.ts): runs the insights engine off the server's
 * thread, so a full analysis (seconds at 10k reviews) never delays a request, and in its own process, so
 * its memory is all given back when it exits. The main thread starts it only when the inputs changed
 * (their hash is computed there) and ends it when it has been idle a while (its NLP libraries and model
 * are most of the process's memory). Analyses it has not cached are asked for from the store
 * through the main thread first, and the ones it computes are sent back to be stored, so a new worker
 * redoes only what changed.
 */
import { publishedView } from '../../domain/published-view.js';
import type { StoredAnalysis } from '../../domain/ports.js';
import type { Review } from '../../domain/review.js';
import { createServiceUrls } from '../../domain/urls.js';
import type { ReviewAnalysis } from '../../insights/analysis/review-analysis.js';
import { parseAnalysis, serializeAnalysis } from '../../insights/analysis/stored-analysis.js';
import type { InsightsEngine } from '../../insights/engine.js';
import type { Taxonomy } from '../../insights/taxonomy.js';
import { lowerThreadPriority } from './background-priority.js';
import { analysisKey } from './insights-input.js';
import type { FromWorker, InsightsReply, InsightsRequest, ToWorker } from './insights-protocol.js';

/** Computed analyses sent to the main thread per message, to be stored. */
const STORE_PART = 2000;
const SERVER_PID = process.ppid;
const ORPHAN_CHECK_EVERY = 250;
let analysedSinceCheck = 0;

// Set by the first message (`init`), which comes before any other.
let taxonomies: Taxonomy[] = [];
let engine: Promise<InsightsEngine> | null = null;
const lookups = new Map<number, { found: StoredAnalysis[]; done(found: StoredAnalysis[]): void }>();

function send(message: FromWorker): void {
  // The server closed the channel (it exits or retired this worker): nothing is waiting any more, and
  // a write that fails for that reason is not an error worth a stack trace.
  if (process.connected) process.send!(message, undefined, undefined, () => undefined);
}

// Each request's reviews, in the parts they came in, until the request itself comes.
const reviewParts = new Map<number, Uint8Array[]>();

function loadEngine(): Promise<InsightsEngine> {
  const loading = Promise.all([import('../../insights/engine.js'), import('../../absa-models.js')]).then(([m, models]) =>
    m.createInsightsEngine({ taxonomies, models: models.readShippedModels() }),
  );
  // A failed load is tried again with the next view, as a crashed worker used to be replaced.
  loading.catch(() => (engine = null));
  return loading;
}

/** The stored analyses of the reviews keyed in `keyById` (review id → analysis key), from the main thread. */
async function restore(id: number, keyById: ReadonlyMap<string, string>): Promise<Map<string, ReviewAnalysis>> {
  const found = await new Promise<StoredAnalysis[]>((resolve) => {
    lookups.set(id, { found: [], done: resolve });
    send({ type: 'lookup', id, keys: [...new Set(keyById.values())] });
  });
  const byKey = new Map(found.map((f) => [f.key, f.body]));
  const restored = new Map<string, ReviewAnalysis>();
  for (const [reviewId, key] of keyById) {
    const body = byKey.get(key);
    if (body !== undefined) restored.set(reviewId, parseAnalysis(body));
  }
  return restored;
}

async function answer(msg: InsightsRequest): Promise<InsightsReply> {
  try {
    // Before the engine loads (seconds of CPU in a new worker): a background rendering must not take
    // CPU from the deliveries of the change it renders, on this replica or another.
    if (msg.background) await lowerThreadPriority();
    const e = await (engine ??= loadEngine());
    // Loading took seconds of CPU, during which a killed server's closed channel went unnoticed.
    exitIfOrphaned();
    const parts = reviewParts.get(msg.id) ?? [];
    reviewParts.delete(msg.id);
    const reviews = JSON.parse(`[${Buffer.concat(parts).toString('utf8')}]`) as Review[];
    const view = publishedView({ business: msg.business, reviews, updatedAt: msg.updatedAt, urls: createServiceUrls(msg.baseUrl) });
    const taxonomy = e.taxonomyOf(view);
    // Each key hashes a review's text: made once per review the engine has not cached, which are the
    // ones looked up and the only ones it can analyse afresh.
    const keyById = new Map<string, string>();
    if (msg.persist) for (const r of e.uncached(view)) keyById.set(r.id, analysisKey(msg.fingerprint, taxonomy, r));
    const restored = keyById.size > 0 ? await restore(msg.id, keyById) : undefined;
    const fresh = new Map<string, string>();
    const doc = e.compute(view, {
      ...(restored ? { restored } : {}),
      onAnalyzed: (r: Review, a: ReviewAnalysis) => {
        if (msg.persist) fresh.set(keyById.get(r.id)!, serializeAnalysis(a));
        if (++analysedSinceCheck >= ORPHAN_CHECK_EVERY) exitIfOrphaned();
      },
    });
    const run = e.lastRun();
    // In parts: one message of 80 MB (100k reviews) would be one long clone on the main thread.
    const analyses = [...fresh].map(([key, body]) => ({ key, body }));
    for (let i = 0; i < analyses.length; i += STORE_PART)
      send({ type: 'computed', id: msg.id, analyses: analyses.slice(i, i + STORE_PART) });
    return { type: 'done', id: msg.id, ok: true, body: JSON.stringify(doc), analyzed: run.analyzed, restored: run.restored };
  } catch (e) {
    return { type: 'done', id: msg.id, ok: false, error: (e as Error).stack ?? String(e) };
  }
}

// One view at a time, in order: the server matches replies by id, and the engine's cache is not
// reentrant. Lookup answers bypass the queue: the view being answered is waiting for them.
let queue = Promise.resolve();
process.on('message', (msg: ToWorker) => {
  if (msg.type === 'init') {
    taxonomies = msg.taxonomies;
    return;
  }
  if (msg.type === 'reviews') {
    const parts = reviewParts.get(msg.id) ?? [];
    parts.push(msg.bytes);
    reviewParts.set(msg.id, parts);
    return;
  }
  if (msg.type === 'analyses') {
    const lookup = lookups.get(msg.id);
    if (!lookup) return;
    for (const f of msg.found) lookup.found.push(f);
    if (msg.last) {
      lookups.delete(msg.id);
      lookup.done(lookup.found);
    }
    return;
  }
  queue = queue.then(() => answer(msg)).then(send);
});
// Never outlive the server: a server that exits, even killed, closes the channel.
process.on('disconnect', () => process.exit(0));

/**
 * The channel's close is an event, which a computation of minutes (100k reviews) would only see at its
 * end: during one, a server killed outright (SIGKILL, no chance to end its worker) is noticed by the
 * parent changing (the orphan is re-parented), checked every few hundred reviews.
 */
function exitIfOrphaned(): void {
  analysedSinceCheck = 0;
  if (process.ppid !== SERVER_PID) process.exit(0);
}
