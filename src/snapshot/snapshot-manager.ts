import { EventEmitter } from 'node:events';
import type { ReviewStore } from '../domain/ports.js';
import type { Snapshot } from './snapshot.js';
import type { DatasetState } from '../domain/ports.js';

export interface SnapshotManagerOptions {
  store: ReviewStore;
  build(state: DatasetState, previous: Snapshot | null): Snapshot;
  /** How often to ask the store whether another process changed the data (contract §1: within 2 s). */
  pollMs?: number;
  onError?(error: unknown): void;
}

export interface SnapshotManager {
  current(): Snapshot;
  /** Loads the first snapshot; call once before serving. */
  start(): Promise<Snapshot>;
  /** Rebuilds now if the store changed since the current snapshot; resolves to the current one. */
  refresh(): Promise<Snapshot>;
  /** Called with each new snapshot after the first (WebSub reacts to it). */
  onChange(listener: (next: Snapshot, previous: Snapshot) => void): void;
  stop(): void;
}

/**
 * Holds the current snapshot and replaces it when the store's change counter moves. Readers always see
 * a complete snapshot: a new one is swapped in whole, never patched.
 */
export function createSnapshotManager(options: SnapshotManagerOptions): SnapshotManager {
  const events = new EventEmitter();
  let snapshot: Snapshot | null = null;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<Snapshot> | null = null;
  // A change signal that arrives while a refresh is running may concern a write that refresh did not
  // see (it read the counter before the commit): remember it and check once more afterwards.
  let again = false;

  async function rebuild(): Promise<Snapshot> {
    const state = await options.store.load();
    const previous = snapshot;
    const next = options.build(state, previous);
    snapshot = next;
    if (previous) events.emit('change', next, previous);
    return next;
  }

  async function refreshOnce(): Promise<Snapshot> {
    const version = await options.store.version();
    if (snapshot && version === snapshot.version) return snapshot;
    return rebuild();
  }

  const manager: SnapshotManager = {
    current() {
      if (!snapshot) throw new Error('snapshot manager not started');
      return snapshot;
    },
    async start() {
      const first = await rebuild();
      const pollMs = options.pollMs ?? 1000;
      if (pollMs > 0) {
        timer = setInterval(() => {
          manager.refresh().catch((e: unknown) => options.onError?.(e));
        }, pollMs);
        timer.unref();
      }
      return first;
    },
    refresh() {
      // One rebuild at a time: a poll that fires during a long rebuild joins it instead of racing it.
      if (inFlight) {
        again = true;
        return inFlight;
      }
      const run = async (): Promise<Snapshot> => {
        let result = await refreshOnce();
        while (again) {
          again = false;
          result = await refreshOnce();
        }
        return result;
      };
      inFlight = run().finally(() => {
        inFlight = null;
        again = false;
      });
      return inFlight;
    },
    onChange(listener) {
      events.on('change', listener);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
  return manager;
}
