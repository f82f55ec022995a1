import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import type { PublishedView } from '../../domain/published-view.js';
import type { InsightsEngine } from '../../insights/engine.js';
import type { Taxonomy } from '../../insights/taxonomy.js';
import type { RenderOutput, SlowRenderer } from './document-renderer.js';
import type { InsightsReply, InsightsRequest } from './insights-protocol.js';
import { joinedBytes } from './json-bytes.js';

/** A document already rendered (by an earlier process: the document cache) and the hash of its inputs. */
export interface KnownDocument {
  inputHash: string;
  body: string;
}

export interface InsightsRendererOptions {
  taxonomies: Taxonomy[];
  /** Run the engine in a worker thread (the server) or inline (tests, one-shot tools). */
  worker: boolean;
  /**
   * The stored document, asked for at the first rendering (worker only): when the inputs hash to it, the
   * worker answers without computing (issue 15). Later renderings compare with the last one.
   */
  known?: () => KnownDocument | undefined;
}

export interface InsightsRenderer extends SlowRenderer {
  close(): Promise<void>;
  /** Renderings the worker computed, and those it skipped because the inputs were unchanged. */
  runs(): { computed: number; unchanged: number };
}

function output(view: PublishedView, body: string, inputHash?: string): RenderOutput {
  return { body, lastModified: view.updatedAt, value: JSON.parse(body) as unknown, ...(inputHash ? { inputHash } : {}) };
}

/**
 * Starts the worker. Built code runs the compiled entry; from TypeScript sources (the test runner) a
 * tiny bootstrap registers tsx's loader first, since Node 20 does not pass `--import` hooks to workers.
 */
function startWorker(taxonomies: Taxonomy[]): Worker {
  const fromSource = fileURLToPath(import.meta.url).endsWith('.ts');
  if (!fromSource) return new Worker(new URL('./insights-worker.js', import.meta.url), { workerData: { taxonomies } });
  const entry = new URL('./insights-worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: { taxonomies } });
}

/**
 * `/insights.json` (insights.md: part of the snapshot, recomputed whenever the published reviews change).
 * A slow renderer: seconds of work at 10k reviews, so the snapshot is published with the previous
 * insights and the new ones replace them when they land. Requests in flight when a new view arrives are
 * answered in order; the engine's cache makes each recompute analyse only changed reviews, and inputs
 * that hash to the last (or the stored) document are not computed at all (issue 15).
 */
export function createInsightsRenderer(options: InsightsRendererOptions): InsightsRenderer {
  const name = 'insights.json';
  if (!options.worker) {
    // The engine (and its NLP libraries, most of a second to load) is imported on first use: the
    // server renders in the worker and never needs it on the main thread.
    let engine: Promise<InsightsEngine> | null = null;
    return {
      kind: 'slow',
      name,
      contentType: JSON_MEDIA_TYPE,
      render: ({ view }) =>
        (engine ??= Promise.all([import('../../insights/engine.js'), import('../../absa-models.js')]).then(([m, models]) =>
          m.createInsightsEngine({ taxonomies: options.taxonomies, models: models.readShippedModels() }),
        )).then((e) => output(view, JSON.stringify(e.compute(view)))),
      close: () => Promise.resolve(),
      runs: () => ({ computed: 0, unchanged: 0 }),
    };
  }

  let worker: Worker | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve(reply: InsightsReply & { ok: true }): void; reject(e: Error): void }>();
  // The last document with its input hash: the stored one until this process renders its own.
  let known: KnownDocument | undefined;
  let askedStore = false;
  const runs = { computed: 0, unchanged: 0 };
  const ensureWorker = (): Worker => {
    if (worker) return worker;
    const w = startWorker(options.taxonomies);
    w.on('message', (reply: InsightsReply) => {
      const pending = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (!pending) return;
      if (reply.ok) pending.resolve(reply);
      else pending.reject(new Error(`insights worker failed: ${reply.error}`));
    });
    // A crashed worker fails what it held; the next view starts a fresh one.
    w.on('error', (e) => {
      for (const p of waiting.values()) p.reject(e);
      waiting.clear();
      worker = null;
    });
    w.unref();
    worker = w;
    return w;
  };

  return {
    kind: 'slow',
    name,
    contentType: JSON_MEDIA_TYPE,
    async render({ view, reviewJson, slicer }) {
      if (!askedStore) {
        askedStore = true;
        known ??= options.known?.();
      }
      const id = nextId++;
      // What `unchanged` will refer to: a reply to an earlier request may replace `known` meanwhile.
      const basis = known;
      const request: InsightsRequest = {
        id,
        business: view.business,
        updatedAt: view.updatedAt,
        reviews: await joinedBytes(reviewJson, '[', ']', slicer),
        baseUrl: view.urls.base,
        knownHash: basis?.inputHash ?? null,
      };
      return new Promise<InsightsReply & { ok: true }>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        // Transferred, not copied; a small buffer may sit in Node's shared pool, which must not move.
        const own = request.reviews.byteLength > 4096 && request.reviews.byteLength === request.reviews.buffer.byteLength;
        ensureWorker().postMessage(request, own ? [request.reviews.buffer as ArrayBuffer] : []);
      }).then((reply) => {
        if ('unchanged' in reply && basis) {
          runs.unchanged += 1;
          return output(view, basis.body, reply.inputHash);
        }
        if (!('body' in reply)) throw new Error('insights worker answered unchanged for a document it was not given');
        runs.computed += 1;
        known = { inputHash: reply.inputHash, body: reply.body };
        return output(view, reply.body, reply.inputHash);
      });
    },
    runs: () => ({ ...runs }),
    async close() {
      const w = worker;
      worker = null;
      for (const p of waiting.values()) p.reject(new Error('insights worker closed'));
      waiting.clear();
      if (w) await w.terminate();
    },
  };
}
