import type { PublicDoc, ReviewStore } from '../domain/ports.js';

/**
 * Stores the public JSON a snapshot build had to compute (rows from before migration 0006, or a catalog
 * change), so the next start reads it instead (a faster start-up). In the background, one batch at a
 * time, after the build that computed it: a cache fill never delays a snapshot, and a failure (a busy
 * SQLite file past its wait, a lost connection) is reported and dropped: those rows are computed again at
 * the next start.
 */
export interface PublicDocFill {
  /** Queues JSON resolved against `catalogKey`. */
  add(catalogKey: string, docs: PublicDoc[]): void;
  /** Settles when everything queued so far is stored or has failed. */
  settled(): Promise<void>;
  /** Takes no more work, and waits for the batch under way (the store is about to close). */
  close(): Promise<void>;
}

export interface PublicDocFillOptions {
  onError?(error: unknown): void;
  /** Rows per statement: on SQLite each statement is a synchronous write on this thread. */
  batchSize?: number;
}

export function createPublicDocFill(store: Pick<ReviewStore, 'storePublic'>, options: PublicDocFillOptions = {}): PublicDocFill {
  const batchSize = options.batchSize ?? 250;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  async function storeAll(catalogKey: string, docs: PublicDoc[]): Promise<void> {
    for (let i = 0; i < docs.length && !closed; i += batchSize) {
      try {
        await store.storePublic(catalogKey, docs.slice(i, i + batchSize));
      } catch (error) {
        // The rest would most likely meet the same lock or outage: give up on this build's work.
        options.onError?.(error);
        return;
      }
      // Requests run between batches (setImmediate: after pending I/O, as time-slice.ts does).
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  return {
    add(catalogKey, docs) {
      if (closed || docs.length === 0) return;
      chain = chain.then(() => storeAll(catalogKey, docs));
    },
    settled: () => chain,
    async close() {
      closed = true;
      await chain;
    },
  };
}
