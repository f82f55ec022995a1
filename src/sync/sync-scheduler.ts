import type { SyncSource } from '../domain/sync-ports.js';
import type { SyncEngine, SyncLog } from './sync-engine.js';

export interface SyncSchedulerDeps {
  engine: SyncEngine;
  sources: readonly SyncSource[];
  /** `SYNC_INTERVAL_SECONDS` in milliseconds. */
  intervalMs: number;
  log: SyncLog;
  /** How soon a push waiting for another replica's run tries again. */
  retryMs?: number;
}

export interface SyncScheduler {
  /** The start-up run of each platform, then the interval runs. */
  start(): void;
  /** A push notification (contract §3.2): a run at once, or right after the one in progress. */
  push(source: SyncSource): void;
  /** Stops the timers and waits for a run in progress (which the engine's signal cancels). */
  close(): Promise<void>;
}

/**
 * When runs happen (contract §3.2): at start-up, every interval, and at once on a push; across replicas
 * the store decides. A scheduled run claims the platform only when no run started within the last
 * interval, and every replica asks a few times per interval, so each interval's run happens once
 * between them whichever replica is alive. A start-up run yields only to one that started after this
 * process did (replicas started together run it once). A push runs unconditionally, waiting for a run
 * in progress here or elsewhere first, since that one may have listed before the change.
 */
export function createSyncScheduler(deps: SyncSchedulerDeps): SyncScheduler {
  const createdAt = performance.now();
  const retryMs = deps.retryMs ?? 500;
  // Asked five times an interval, between once a second and once a minute.
  const pollMs = Math.min(60_000, Math.max(1000, deps.intervalMs / 5));
  const state = new Map(deps.sources.map((s) => [s, { running: null as Promise<void> | null, pushed: false, retrying: false }]));
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  function later(ms: number, fn: () => void) {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  }

  /** `withinMs`: a scheduled run's condition (no run started that recently); undefined: a push's run. */
  function run(source: SyncSource, withinMs: number | undefined) {
    const s = state.get(source)!;
    if (s.running || closed) return;
    const pushed = withinMs === undefined;
    if (pushed) s.pushed = false;
    s.running = deps.engine
      .run(source, pushed ? {} : { notStartedWithinMs: withinMs })
      .then(
        (result) => {
          // A push that found another replica running (or lost its claim) runs again shortly: the other
          // run may have listed before the change the push announced.
          if (pushed && (result.outcome === 'skipped' || result.outcome === 'cancelled')) s.pushed = true;
        },
        (err: unknown) => {
          if (pushed) s.pushed = true;
          deps.log.warn({ sync: source, err }, `sync ${source}: could not claim a run (store unavailable); trying again later`);
        },
      )
      .finally(() => {
        s.running = null;
        if (!s.pushed || closed || s.retrying) return;
        s.retrying = true;
        later(retryMs, () => {
          s.retrying = false;
          if (s.pushed) run(source, undefined);
        });
      });
  }

  return {
    start() {
      // The start-up run yields only to a run that started since this process did.
      for (const source of deps.sources) run(source, Math.round(performance.now() - createdAt));
      const poll = setInterval(() => {
        for (const source of deps.sources) run(source, deps.intervalMs);
      }, pollMs);
      poll.unref();
      timers.add(poll);
    },
    push(source) {
      const s = state.get(source);
      if (!s || closed) return;
      s.pushed = true;
      if (!s.running) run(source, undefined);
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all([...state.values()].map((s) => s.running));
    },
  };
}
