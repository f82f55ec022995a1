import type { Taxonomy } from '../../insights/taxonomy.js';
import type { AnalysisCacheStore, DocumentCacheStore } from '../../domain/ports.js';
import { datasetRenderer } from './dataset.js';
import type { DocumentRenderer, SlowRenderer } from './document-renderer.js';
import { createAtomRenderer, jsonFeedRenderer } from './feeds.js';
import { createInsightsRenderer, type InsightsOutcome, type KnownDocument } from './insights.js';
import type { SharedRendering } from './shared-rendering.js';

export interface Renderers {
  /** Every document of a snapshot: reviews.json, insights.json, feed.json, feed.xml. */
  list: DocumentRenderer[];
  close(): Promise<void>;
}

export interface RenderersOptions {
  /** Custom taxonomies (INSIGHTS_TAXONOMY_FILE, read by the composition root). */
  taxonomies: Taxonomy[];
  /** A stored rendering by document name (the document cache): equal inputs skip the work. */
  known?: (name: string) => KnownDocument | undefined;
  /** Insights: per-review analyses kept across workers and restarts, and what to do when that store fails. */
  analyses?: AnalysisCacheStore;
  onCacheError?(error: unknown): void;
  /** Insights: replicas on one database render each input once; absent, this process renders all. */
  shared?: SharedRendering;
  /** Insights: each rendering's outcome, for the metrics. */
  onRun?(outcome: InsightsOutcome): void;
  /** The Atom feed: its last rendering kept across restarts, and what to do when that store fails. */
  feedStore?: { store: DocumentCacheStore; onError(error: unknown): void };
}

/** The one home of rendering: the documents every snapshot publishes. */
export function createDocumentRenderers(options: RenderersOptions): Renderers {
  // One engine per process, in a worker process ended when idle: it caches each review's analysis, and
  // with a store keeps them across workers, so a rebuild analyses what changed.
  const { known, feedStore, ...rest } = options;
  const insights = createInsightsRenderer({ ...rest, ...(known ? { known: () => known('insights.json') } : {}) });
  return documentRenderersWith(insights, feedStore);
}

/** The documents around a given insights renderer (the server's, or a test's own). */
export function documentRenderersWith(
  insights: SlowRenderer & { close(): Promise<void> },
  feedStore?: RenderersOptions['feedStore'],
): Renderers {
  const atom = createAtomRenderer(feedStore ? { store: feedStore.store, onCacheError: feedStore.onError } : {});
  return {
    list: [datasetRenderer, insights, jsonFeedRenderer, atom],
    close: () => Promise.all([insights.close(), atom.close()]).then(() => undefined),
  };
}

export type { DocumentRenderer, FastRenderer, RenderInput, RenderOutput, SlowRenderer } from './document-renderer.js';
export type { InsightsOutcome, KnownDocument } from './insights.js';
export type { SharedRendering } from './shared-rendering.js';
