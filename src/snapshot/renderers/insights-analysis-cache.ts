import type { AnalysisCacheStore, StoredAnalysis } from '../../domain/ports.js';
import type { WorkerHost } from './insights-worker-client.js';

/** Stored analyses read and sent to the worker per message. */
const LOOKUP_PART = 2000;

/**
 * The per-review analyses kept across workers and restarts, as the worker asks for them: read back in
 * parts as they are read (one clone of 80 MB at 100k reviews would stop the loop), written in the order
 * they were computed. A store that fails costs only speed: its error is reported and the analyses are
 * computed again.
 */
export interface AnalysisCache extends WorkerHost {
  /** Whether analyses are kept at all (the worker hashes keys and returns fresh analyses only then). */
  readonly persistent: boolean;
  /** Resolves when every analysis handed over so far is written (or failed). */
  flush(): Promise<void>;
}

export function createAnalysisCache(
  store: AnalysisCacheStore | undefined,
  /** The engine the analyses belong to (part of their rows: another engine's are removed). */
  engine: () => Promise<string>,
  onError: (error: unknown) => void = () => undefined,
): AnalysisCache {
  let writing: Promise<void> = Promise.resolve();
  return {
    persistent: store !== undefined,
    async lookup(keys, answer, alive) {
      for (let i = 0; (i < keys.length || i === 0) && alive(); i += LOOKUP_PART) {
        const part = keys.slice(i, i + LOOKUP_PART);
        const found = store && part.length > 0 ? await store.read(part).catch((e: unknown) => (onError(e), [])) : [];
        answer(found, i + LOOKUP_PART >= keys.length);
      }
    },
    computed(analyses: StoredAnalysis[]) {
      if (!store || analyses.length === 0) return;
      writing = writing
        .then(engine)
        .then((e) => store.write(e, analyses))
        .catch(onError);
    },
    flush: () => writing,
  };
}
