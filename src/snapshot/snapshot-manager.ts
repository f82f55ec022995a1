import { EventEmitter } from 'node:events';
import type { ReviewStore } from '../domain/ports.js';
import { RenderSuperseded } from './renderers/document-renderer.js';
import { withDocument, type RenderedDocuments, type Snapshot, type SnapshotBuild, type SnapshotSource } from './snapshot.js';

/** How long a request at a cold start waits for the first slow documents: longer than a full insights pass. */
export const COLD_START_WAIT_MS = 15_000;

export interface SnapshotManagerOptions {
  /** Polled for the change counter; the build reads the data itself (snapshot-builder.ts). */
  store: Pick<ReviewStore, 'version'>;
  /**
   * Builds the next snapshot from the store; `previous` lends it the slow documents that have not
   * landed yet and keeps serving until it resolves. It calls `onDocuments` once its documents are
   * rendered, before its indexes (snapshot.ts `AssembleOptions`).
   */
  build(previous: Snapshot | null, onDocuments: (rendered: RenderedDocuments) => void): Promise<SnapshotBuild>;
  /** How often to ask the store whether another process changed the data (contract §1: within 2 s). */
  pollMs?: number;
  onError?(error: unknown): void;
  coldStartWaitMs?: number;
}

export interface SnapshotManager extends SnapshotSource {
  current(): Snapshot;
  rendered(): Promise<Snapshot>;
  /** Loads the first snapshot; call once before serving. */
  start(): Promise<Snapshot>;
  /** Rebuilds now if the store changed since the current snapshot; resolves to the current one. */
  refresh(): Promise<Snapshot>;
  /** Called with each new snapshot of new data after the first (WebSub reacts to it). */
  onChange(listener: (next: Snapshot, previous: Snapshot) => void): void;
  /**
   * Called with each build's documents as soon as they are rendered, before its indexes are built and
   * before it is published (the WebSub fan-out: the hub delivers the new topic bytes meanwhile).
   * The same representations the snapshot will hold; if the build fails after this, no snapshot holds
   * them and the next refresh builds the same data again.
   */
  onDocuments(listener: (rendered: RenderedDocuments) => void): void;
  stop(): void;
}

/**
 * Holds the current snapshot and replaces it when the store's change counter moves. Readers always see
 * a complete snapshot: a new one is swapped in whole, never patched; a slow document (insights) that
 * lands later swaps in a copy that holds it, if nothing newer landed first.
 */
export function createSnapshotManager(options: SnapshotManagerOptions): SnapshotManager {
  const events = new EventEmitter();
  let snapshot: Snapshot | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let inFlight: Promise<Snapshot> | null = null;
  // A change signal that arrives while a refresh is running may concern a write that refresh did not
  // see (it read the counter before the commit): remember it and check once more afterwards.
  let again = false;
  // Settles when the first slow documents land or fail: the only time a request may wait (a cold start).
  let firstRendered: (() => void) | null = null;
  const firstRender = new Promise<void>((resolve) => (firstRendered = resolve));

  function land(slow: SnapshotBuild['slow']): void {
    for (const work of slow) {
      work.then(
        (landed) => {
          if (snapshot) snapshot = withDocument(snapshot, landed);
          if (snapshot?.missing.size === 0) firstRendered?.();
        },
        (error: unknown) => {
          // The previous document stays; with none, the route answers 503 instead of waiting again.
          // After stop(), renderers are closed on purpose: their abandoned work is not an error; nor is
          // a wait for another replica's rendering that a newer rendering made pointless.
          if (!stopped && !(error instanceof RenderSuperseded)) options.onError?.(error);
          firstRendered?.();
        },
      );
    }
  }

  /** Tells the listeners a rebuild's documents; a listener's error is reported, never the build's. */
  function announce(rendered: RenderedDocuments): void {
    try {
      events.emit('documents', rendered);
    } catch (error) {
      options.onError?.(error);
    }
  }

  async function rebuild(): Promise<Snapshot> {
    const previous = snapshot;
    const { snapshot: next, slow } = await options.build(previous, announce);
    snapshot = next;
    if (next.missing.size === 0) firstRendered?.();
    land(slow);
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
    async rendered() {
      let timeout: NodeJS.Timeout | undefined;
      const wait = options.coldStartWaitMs ?? COLD_START_WAIT_MS;
      await Promise.race([firstRender, new Promise<void>((resolve) => (timeout = setTimeout(resolve, wait)))]);
      clearTimeout(timeout);
      return manager.current();
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
    onDocuments(listener) {
      events.on('documents', listener);
    },
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
  return manager;
}
