import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import type { PublishedView } from '../../domain/published-view.js';
import type { InsightsEngine } from '../../insights/engine.js';
import type { Taxonomy } from '../../insights/taxonomy.js';
import type { RenderOutput, SlowRenderer } from './document-renderer.js';
import type { InsightsReply, InsightsRequest } from './insights-protocol.js';

export interface InsightsRendererOptions {
  taxonomies: Taxonomy[];
  /** Run the engine in a worker thread (the server) or inline (tests, one-shot tools). */
  worker: boolean;
}

export interface InsightsRenderer extends SlowRenderer {
  close(): Promise<void>;
}

function output(view: PublishedView, body: string): RenderOutput {
  return { body, lastModified: view.updatedAt, value: JSON.parse(body) as unknown };
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
 * answered in order; the engine's cache makes each recompute analyse only changed reviews.
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
    };
  }

  let worker: Worker | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve(body: string): void; reject(e: Error): void }>();
  const ensureWorker = (): Worker => {
    if (worker) return worker;
    const w = startWorker(options.taxonomies);
    w.on('message', (reply: InsightsReply) => {
      const pending = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (!pending) return;
      if (reply.ok) pending.resolve(reply.body);
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
    render({ view }) {
      const id = nextId++;
      const { urls, ...rest } = view;
      const request: InsightsRequest = { id, view: rest, baseUrl: urls.base };
      return new Promise<string>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        ensureWorker().postMessage(request);
      }).then((body) => output(view, body));
    },
    async close() {
      const w = worker;
      worker = null;
      for (const p of waiting.values()) p.reject(new Error('insights worker closed'));
      waiting.clear();
      if (w) await w.terminate();
    },
  };
}
