import type { SyncSource } from '../domain/sync-ports.js';
import type { SyncEngine, SyncLog } from './sync-engine.js';

export interface SyncSchedulerDeps {
  engine: SyncEngine;
  sources: readonly SyncSource[];
  /** `SYNC_INTERVAL_SECONDS` in milliseconds. */
  intervalMs: number;
  log: SyncLog;
  now?: () => Date;
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
  const now = deps.now ?? (() => new Date());
  const startedAt = now();
  const retryMs = deps.retryMs ?? 500;
  // Asked five times an interval, between once a second and once a minute.
  const pollMs = Math.min(60_000, Math.max(1000, deps.intervalMs / 5));
  const state = new Map(deps.sources.map((s) => [s, { running: null as Promise<void> | null, pushed: false }]));
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

  function run(source: SyncSource, notStartedAfter: Date | undefined) {
    const s = state.get(source)!;
    if (s.running || closed) return;
    if (!notStartedAfter) s.pushed = false;
    s.running = deps.engine
      .run(source, notStartedAfter ? { notStartedAfter } : {})
      .then(
        (result) => {
          // A push found another replica running: try again shortly, so its change is not missed.
          if (result.outcome === 'skipped' && !notStartedAfter) s.pushed = true;
        },
        (err: unknown) =>
          deps.log.warn({ sync: source, err }, `sync ${source}: could not claim a run (store unavailable); trying again later`),
      )
      .finally(() => {
        s.running = null;
        if (s.pushed && !closed) later(retryMs, () => run(source, undefined));
      });
  }

  return {
    start() {
      for (const source of deps.sources) run(source, startedAt);
      const poll = setInterval(() => {
        for (const source of deps.sources) run(source, new Date(now().getTime() - deps.intervalMs));
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
