import { JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import type { PublishedView } from '../../domain/published-view.js';
import type { AnalysisCacheStore } from '../../domain/ports.js';
import type { Taxonomy } from '../../insights/taxonomy.js';
import type { RenderOutput, SlowRenderer } from './document-renderer.js';
import { createAnalysisCache } from './insights-analysis-cache.js';
import { createClaimPolicy } from './insights-claim-policy.js';
import { INSIGHTS_CODE_VERSION, insightsFingerprint, insightsInputHash } from './insights-input.js';
import { createWorkerClient } from './insights-worker-client.js';
import type { SharedRendering } from './shared-rendering.js';

/** A document already rendered (by an earlier process: the document cache) and the hash of its inputs. */
export interface KnownDocument {
  inputHash: string;
  body: string;
}

export interface InsightsRendererOptions {
  taxonomies: Taxonomy[];
  /**
   * The stored document, asked for at the first rendering: when the inputs hash to it, the worker is
   * not even started. Later renderings compare with the last one.
   */
  known?: () => KnownDocument | undefined;
  /** Where per-review analyses are kept across workers and restarts. */
  analyses?: AnalysisCacheStore;
  /** How long the worker stays after its last answer before it exits and gives its memory back. */
  workerIdleMs?: number;
  /** A failure that costs only speed (reading or writing stored analyses): logged, never fatal. */
  onCacheError?(error: unknown): void;
  /**
   * Replicas on one database: a rendering that nothing waits for is done by one replica per input, the
   * others take its document from the store. Absent: every input is rendered here, as a lone process does.
   */
  shared?: SharedRendering;
  /** Each rendering's outcome, for the metrics. */
  onRun?(outcome: InsightsOutcome): void;
}

/** Computed here, skipped (inputs equal to the last document's), or taken from another replica's rendering. */
export type InsightsOutcome = 'computed' | 'unchanged' | 'adopted';

export interface InsightsRenderer extends SlowRenderer {
  /** The version of the code that renders it (insights-input.ts): stored outputs of another version are stale. */
  readonly codeVersion: string;
  close(): Promise<void>;
  /**
   * Renderings the worker computed, those skipped because the inputs were unchanged, workers started
   * (a new one after each idle exit), and reviews analysed afresh or restored from the store in all.
   */
  runs(): InsightsRuns;
}

export interface InsightsRuns {
  computed: number;
  unchanged: number;
  workers: number;
  analyzed: number;
  restored: number;
  adopted: number;
}

function output(view: PublishedView, body: string, inputHash?: string): RenderOutput {
  return { body, lastModified: view.updatedAt, ...(inputHash ? { inputHash } : {}) };
}

/**
 * `/insights.json` (insights.md: part of the snapshot, recomputed whenever the published reviews change).
 * A slow renderer: seconds of work at 10k reviews, so the snapshot is published with the previous
 * insights and the new ones replace them when they land. Three parts, each in its own module:
 * - the worker client (the engine runs in a child process, started on demand, ended when idle);
 * - the analysis cache (per-review analyses kept in the store, read back by a new worker);
 * - the claim policy (replicas on one database render each input once).
 * Here: inputs that hash to the last (or the stored) document are not computed at all, so the worker is
 * started only for inputs that changed. Requests in flight when a new view arrives are answered in order.
 */
export function createInsightsRenderer(options: InsightsRendererOptions): InsightsRenderer {
  const name = 'insights.json';
  let fingerprint: Promise<string> | null = null;
  const engine = () => (fingerprint ??= insightsFingerprint(options.taxonomies));
  const cache = createAnalysisCache(options.analyses, engine, (e) => options.onCacheError?.(e));
  const worker = createWorkerClient({
    taxonomies: options.taxonomies,
    host: cache,
    ...(options.workerIdleMs !== undefined ? { idleMs: options.workerIdleMs } : {}),
  });
  const claims = createClaimPolicy(options.shared);
  // The last document with its input hash: the stored one until this process renders its own.
  let known: KnownDocument | undefined;
  let askedStore = false;
  // After close(): no worker may start again, and a rendering still hashing its inputs is abandoned.
  let closed = false;
  const runs = { computed: 0, unchanged: 0, analyzed: 0, restored: 0, adopted: 0 };
  // The newest rendering asked for: a wait for another replica's older document ends when a newer begins.
  let latest = 0;

  const count = (outcome: InsightsOutcome) => {
    runs[outcome] += 1;
    options.onRun?.(outcome);
  };

  /** Renders in the worker (started if needed). */
  const compute = async (view: PublishedView, reviews: Buffer, fp: string, background: boolean): Promise<string> => {
    const reply = await worker.render(
      {
        business: view.business,
        updatedAt: view.updatedAt,
        baseUrl: view.urls.base,
        fingerprint: fp,
        persist: cache.persistent,
        background,
      },
      reviews,
    );
    runs.analyzed += reply.analyzed;
    runs.restored += reply.restored;
    count('computed');
    return reply.body;
  };

  return {
    kind: 'slow',
    name,
    contentType: JSON_MEDIA_TYPE,
    codeVersion: INSIGHTS_CODE_VERSION,
    async render({ view, reviewBytes, slicer, background = false }) {
      const generation = ++latest;
      if (!askedStore) {
        askedStore = true;
        known ??= options.known?.();
      }
      const fp = await engine();
      const reviews = reviewBytes.range(0, reviewBytes.count);
      const inputHash = await insightsInputHash(fp, { business: view.business, updatedAt: view.updatedAt, reviews }, slicer);
      if (closed) throw new Error('insights renderer closed');
      if (known?.inputHash === inputHash) {
        count('unchanged');
        return output(view, known.body, inputHash);
      }
      const { body, adopted } = await claims.decide(
        name,
        inputHash,
        { background, warm: worker.running(), wanted: () => generation === latest && !closed },
        () => compute(view, reviews, fp, background),
      );
      known = { inputHash, body };
      // A document another replica stored is not stored again (no input hash).
      if (!adopted) return output(view, body, inputHash);
      count('adopted');
      return output(view, body);
    },
    runs: () => ({ ...runs, workers: worker.started() }),
    async close() {
      closed = true;
      await worker.close();
      // The analyses already received are stored before the store closes; those of a rendering cut
      // off here are computed again by the next process.
      await cache.flush();
    },
  };
}
