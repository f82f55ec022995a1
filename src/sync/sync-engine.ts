import { DeletionGuardError } from '../domain/deletion-guard.js';
import type { ImportSummary, ReviewStore } from '../domain/ports.js';
import { SyncClaimLostError, type SyncSource, type SyncStateStore } from '../domain/sync-ports.js';
import { applyRecords } from '../import/apply-records.js';
import type { JsonProfile } from '../import/profiles/profile.js';
import { listedRecords, type RawFile } from '../import/raw-records.js';
import { formatProblem, type ImportProblem } from '../import/validate-records.js';
import type { PlatformConnector } from './connector.js';
import { PlatformError } from './platform-http.js';

export type SyncRunResult =
  | { outcome: 'success'; source: SyncSource; summary: ImportSummary; pages: number; durationMs: number }
  | { outcome: 'failed'; source: SyncSource; code: string; message: string; durationMs: number }
  /** Stopped by a shutdown, or by the loss of its claim: nothing changed, and it is no platform failure. */
  | { outcome: 'cancelled'; source: SyncSource; code: string; message: string; durationMs: number }
  /** Another process holds the claim, or (for a scheduled run) a run already started in this interval. */
  | { outcome: 'skipped'; source: SyncSource };

export interface RunOptions {
  /** Apply a listing the deletion guard refuses (`review-data sync google --allow-deletions`). */
  allowDeletions?: boolean;
  /** Run only if no run of this source started within this many milliseconds (scheduled runs, across replicas). */
  notStartedWithinMs?: number;
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
  onRun?: (source: SyncSource, outcome: 'success' | 'failed' | 'cancelled') => void;
  /** The claims' clock: the store's (the database's) unless a test injects one. */
  now?: () => Date | Promise<Date>;
  /** Aborted when the process shuts down: a run in progress stops and changes nothing. */
  signal?: AbortSignal;
}

export interface SyncEngine {
  /** One run of one platform: claim, list, apply in one transaction, record, log one line. */
  run(source: SyncSource, options?: RunOptions): Promise<SyncRunResult>;
}

/**
 * A listing with each review mapped by the platform's import profile, a review listed twice (pages
 * that shifted while they were read) kept once, as its last reading.
 */
function listingFile(profile: JsonProfile, reviews: readonly unknown[]): RawFile {
  const file = listedRecords(profile, reviews);
  const idOf = (value: unknown) => (value as { id?: unknown }).id;
  const last = new Map<unknown, number>();
  file.records.forEach((r, i) => last.set(idOf(r.value) ?? i, i));
  file.records = file.records.filter((r, i) => last.get(idOf(r.value) ?? i) === i);
  return file;
}

/** The first problems of a listing, as one failure saying how many reviews could not be taken. */
function malformed(label: string, kind: 'unreadable' | 'invalid', problems: ImportProblem[]): PlatformError {
  const first = problems.slice(0, 3).map(formatProblem);
  return new PlatformError('malformed', `the ${label} listing holds ${problems.length} ${kind} review(s): ${first.join('; ')}`);
}

/** A failure as the operator reads it: the platform's, the guard's, or an invalid listed review. */
function describeFailure(e: unknown, signal: AbortSignal): { outcome: 'failed' | 'cancelled'; code: string; message: string } {
  if (e instanceof SyncClaimLostError) return { outcome: 'cancelled', code: e.code, message: e.message };
  if (signal.aborted) {
    const reason = signal.reason instanceof Error ? signal.reason.message : 'shutting down';
    return { outcome: 'cancelled', code: 'cancelled', message: `the run stopped (${reason}): nothing was changed` };
  }
  if (e instanceof PlatformError || e instanceof DeletionGuardError) return { outcome: 'failed', code: e.code, message: e.message };
  // A storage failure: its message names the database, never a platform secret.
  return { outcome: 'failed', code: 'internal', message: e instanceof Error ? e.message : String(e) };
}

/** At most this many deletion candidates are read one by one; more trip the guard, or the operator allowed them. */
const MAX_CONFIRMATIONS = 50;

/**
 * The sync engine (contract §3.2), written once above the platform connectors. A run takes the
 * platform's claim in the store (one replica at a time), renews it while it works, lists every review
 * from the platform, reads once more each stored review the listing lacks (a listing's pages shift when
 * reviews change while they are read), and applies the listing as one import transaction that checks
 * the claim: the platform's stored reviews become equal to it (unchanged ones are not rewritten), within
 * the deletion guard. Any failure before the commit changes nothing; a process killed mid-run leaves its
 * claim to lapse.
 */
export function createSyncEngine(deps: SyncEngineDeps): SyncEngine {
  const clock = async () => (deps.now ? deps.now() : deps.state.clock());
  const byName = new Map(deps.connectors.map((c) => [c.source, c]));

  async function execute(connector: PlatformConnector, options: RunOptions, signal: AbortSignal) {
    const listing = await connector.list(signal);
    let file = listingFile(connector.profile, listing.reviews);
    const listed = new Set(file.records.map((r) => (r.value as { id?: unknown }).id));
    const candidates = (await deps.store.platformIds(connector.source)).filter((id) => !listed.has(id));
    if (candidates.length > 0 && candidates.length <= MAX_CONFIRMATIONS) {
      const found = await connector.stillThere(candidates, signal);
      if (found.length > 0) file = listingFile(connector.profile, [...listing.reviews, ...found]);
    }
    const name = `${connector.label} listing`;
    if (file.problems.length > 0)
      throw malformed(
        connector.label,
        'unreadable',
        file.problems.map((p) => ({ file: name, path: p.path ?? '', ...p })),
      );
    signal.throwIfAborted();
    const applied = await applyRecords(deps.store, [{ name, raw: file }], {
      replace: false,
      assumeVerified: false,
      platformListing: {
        platform: connector.source,
        allowDeletions: options.allowDeletions ?? false,
        claim: { holder: deps.holder, now: await clock(), leaseMs: deps.leaseMs },
      },
    });
    if (!applied.ok) throw malformed(connector.label, 'invalid', applied.problems);
    return { summary: applied.summary, pages: listing.pages };
  }

  function logRun(source: SyncSource, result: Exclude<SyncRunResult, { outcome: 'skipped' }>) {
    if (result.outcome !== 'success') {
      deps.log.warn(
        { sync: source, outcome: result.outcome, code: result.code, duration_ms: result.durationMs },
        `sync ${source} ${result.outcome === 'failed' ? 'failed' : 'stopped'}, nothing was changed: ${result.message}`,
      );
      return;
    }
    const { added, updated, unchanged, deleted, demo_removed: demo, sample_removed: samples } = result.summary;
    // The demo and the README's sample reviews step aside for the business's own, as at a file import.
    const aside = [
      demo ? `the bundled demo business "${demo.name}" and its ${demo.reviews} reviews stepped aside (import your business.json)` : '',
      samples ? `${samples} sample review(s) of the README stepped aside` : '',
    ].filter(Boolean);
    deps.log.info(
      { sync: source, outcome: 'success', added, updated, unchanged, deleted, pages: result.pages, duration_ms: result.durationMs },
      `sync ${source}: ${added} added, ${updated} updated, ${unchanged} unchanged, ${deleted} deleted (${result.pages} page(s), ${result.durationMs} ms)${aside.length ? `; ${aside.join('; ')}` : ''}`,
    );
  }

  return {
    async run(source, options = {}) {
      const connector = byName.get(source);
      if (!connector) throw new Error(`no connector for ${source}`);
      const started = performance.now();
      const claimed = await deps.state.claim({
        source,
        holder: deps.holder,
        now: await clock(),
        leaseMs: deps.leaseMs,
        ...(options.notStartedWithinMs !== undefined ? { notStartedWithinMs: options.notStartedWithinMs } : {}),
      });
      if (!claimed) return { outcome: 'skipped', source };

      // The claim is renewed while the run works; losing it, or failing to renew it for most of the
      // lease (a store that stopped answering), stops the run before it writes.
      const lost = new AbortController();
      const signal = deps.signal ? AbortSignal.any([deps.signal, lost.signal]) : lost.signal;
      let renewedAt = performance.now();
      const renewal = setInterval(
        () => {
          clock()
            .then((now) => deps.state.renew(source, deps.holder, now, deps.leaseMs))
            .then(
              (kept) => {
                if (kept) renewedAt = performance.now();
                else lost.abort(new Error('its claim was taken over'));
              },
              () => {
                if (performance.now() - renewedAt > deps.leaseMs * 0.8) lost.abort(new Error('its claim could not be renewed'));
              },
            );
        },
        Math.max(1000, deps.leaseMs / 3),
      );
      renewal.unref();

      let result: Exclude<SyncRunResult, { outcome: 'skipped' }>;
      const duration = () => Math.round(performance.now() - started);
      try {
        const { summary, pages } = await execute(connector, options, signal);
        result = { outcome: 'success', source, summary, pages, durationMs: duration() };
      } catch (e) {
        result = { source, ...describeFailure(e, signal), durationMs: duration() };
      } finally {
        clearInterval(renewal);
      }
      const record = {
        outcome: result.outcome === 'success' ? ('success' as const) : ('failed' as const),
        message: result.outcome === 'success' ? null : result.message,
      };
      await clock()
        .then((at) => deps.state.finish(source, deps.holder, { at, ...record }))
        .catch((e: unknown) => deps.log.warn({ source, err: e }, `sync ${source}: could not record the run; its claim lapses by itself`));
      deps.onRun?.(source, result.outcome);
      logRun(source, result);
      return result;
    },
  };
}
