import { DeletionGuardError } from '../domain/deletion-guard.js';
import type { ImportSummary, ReviewStore } from '../domain/ports.js';
import type { SyncSource, SyncStateStore } from '../domain/sync-ports.js';
import { applyRecords } from '../import/apply-records.js';
import { formatProblem } from '../import/validate-records.js';
import type { PlatformConnector } from './connector.js';
import { PlatformError } from './platform-http.js';

export type SyncRunResult =
  | { outcome: 'success'; source: SyncSource; summary: ImportSummary; pages: number; durationMs: number }
  | { outcome: 'failed'; source: SyncSource; code: string; message: string; durationMs: number }
  /** Another process holds the claim, or (for a scheduled run) a run already started in this interval. */
  | { outcome: 'skipped'; source: SyncSource };

export interface RunOptions {
  /** Apply a listing the deletion guard refuses (`review-data sync google --allow-deletions`). */
  allowDeletions?: boolean;
  /** Run only if no run of this source started after this instant (scheduled runs, across replicas). */
  notStartedAfter?: Date;
}

export interface SyncLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SyncEngineDeps {
  store: ReviewStore;
  state: SyncStateStore;
  connectors: readonly PlatformConnector[];
  /** This process, as claims name it (`host:pid:random`). */
  holder: string;
  /** A claim lapses this long after its last renewal: a replica killed mid-run is replaced after it. */
  leaseMs: number;
  log: SyncLog;
  onRun?: (source: SyncSource, outcome: 'success' | 'failed') => void;
  now?: () => Date;
  /** Aborted when the process shuts down: a run in progress stops and changes nothing. */
  signal?: AbortSignal;
}

export interface SyncEngine {
  connector(source: SyncSource): PlatformConnector | undefined;
  /** One run of one platform: claim, list, apply in one transaction, record, log one line. */
  run(source: SyncSource, options?: RunOptions): Promise<SyncRunResult>;
}

/** A failure as the operator reads it: the platform's, the guard's, or an invalid listed review. */
function describeFailure(e: unknown): { code: string; message: string } {
  if (e instanceof PlatformError) return { code: e.code, message: e.message };
  if (e instanceof DeletionGuardError) return { code: e.code, message: e.message };
  if (e instanceof Error && e.name === 'AbortError')
    return { code: 'cancelled', message: 'the run was cancelled (shutting down, or its claim was lost)' };
  // A storage failure: its message names the database, never a platform secret.
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}

/**
 * The sync engine (contract §3.2), written once above the platform connectors. A run takes the
 * platform's claim in the store (one replica at a time), renews it while it works, lists every review
 * from the platform, and applies the listing as one import transaction: the platform's stored reviews
 * become equal to it (unchanged ones are not rewritten), within the deletion guard. Any failure before
 * the commit changes nothing; a process killed mid-run leaves its claim to lapse.
 */
export function createSyncEngine(deps: SyncEngineDeps): SyncEngine {
  const now = deps.now ?? (() => new Date());
  const byName = new Map(deps.connectors.map((c) => [c.source, c]));

  async function execute(connector: PlatformConnector, options: RunOptions, signal: AbortSignal) {
    const listing = await connector.list(signal);
    if (listing.file.problems.length > 0) {
      const first = listing.file.problems
        .slice(0, 3)
        .map((p) => formatProblem({ file: `${connector.label} listing`, path: p.path ?? '', ...p }));
      throw new PlatformError(
        'malformed',
        `the ${connector.label} listing holds ${listing.file.problems.length} unreadable review(s): ${first.join('; ')}`,
      );
    }
    signal.throwIfAborted();
    const applied = await applyRecords(deps.store, [{ name: `${connector.label} listing`, raw: listing.file }], {
      replace: false,
      assumeVerified: false,
      platformListing: { platform: connector.source, allowDeletions: options.allowDeletions ?? false },
    });
    if (!applied.ok) {
      const first = applied.problems.slice(0, 3).map(formatProblem);
      throw new PlatformError(
        'malformed',
        `the ${connector.label} listing holds ${applied.problems.length} invalid review(s): ${first.join('; ')}`,
      );
    }
    return { summary: applied.summary, pages: listing.pages };
  }
  return {
    connector: (source) => byName.get(source),

    async run(source, options = {}) {
      const connector = byName.get(source);
      if (!connector) throw new Error(`no connector for ${source}`);
      const started = now();
      const claimed = await deps.state.claim({
        source,
        holder: deps.holder,
        now: started,
        leaseMs: deps.leaseMs,
        ...(options.notStartedAfter ? { notStartedAfter: options.notStartedAfter } : {}),
      });
      if (!claimed) return { outcome: 'skipped', source };

      // The claim is renewed while the run works; losing it (a pause longer than the lease) stops the run.
      const lost = new AbortController();
      const signal = deps.signal ? AbortSignal.any([deps.signal, lost.signal]) : lost.signal;
      const renewal = setInterval(
        () => {
          deps.state.renew(source, deps.holder, now(), deps.leaseMs).then(
            (kept) => kept || lost.abort(new DOMException('claim lost', 'AbortError')),
            () => undefined,
          );
        },
        Math.max(1000, deps.leaseMs / 3),
      );
      renewal.unref();

      let result: SyncRunResult;
      try {
        const { summary, pages } = await execute(connector, options, signal);
        result = { outcome: 'success', source, summary, pages, durationMs: now().getTime() - started.getTime() };
      } catch (e) {
        result = { outcome: 'failed', source, ...describeFailure(e), durationMs: now().getTime() - started.getTime() };
      } finally {
        clearInterval(renewal);
      }
      await deps.state
        .finish(source, deps.holder, { at: now(), outcome: result.outcome, message: result.outcome === 'failed' ? result.message : null })
        .catch((e: unknown) => deps.log.warn({ source, err: e }, `sync ${source}: could not record the run; its claim lapses by itself`));
      deps.onRun?.(source, result.outcome);
      // One line per run (issue: source, outcome, counts, duration; never a secret).
      if (result.outcome === 'success') {
        const { added, updated, unchanged, deleted } = result.summary;
        deps.log.info(
          { sync: source, outcome: 'success', added, updated, unchanged, deleted, pages: result.pages, duration_ms: result.durationMs },
          `sync ${source}: ${added} added, ${updated} updated, ${unchanged} unchanged, ${deleted} deleted (${result.pages} page(s), ${result.durationMs} ms)`,
        );
      } else {
        deps.log.warn(
          { sync: source, outcome: 'failed', code: result.code, duration_ms: result.durationMs },
          `sync ${source} failed, nothing was changed: ${result.message}`,
        );
      }
      return result;
    },
  };
}
