import type { DocumentCacheStore, StoredDocument } from '../domain/ports.js';
import { createRepresentation } from './rendered-document.js';
import type { KnownDocument } from './renderers/insights.js';
import type { SlowRenderer } from './renderers/document-renderer.js';
import type { LandedDocument, SeededDocument } from './snapshot.js';

/**
 * The slow documents of the last process, kept in the store: a fresh process serves them at
 * once instead of answering 503 until its own renderings land, and a renderer whose inputs hash to the
 * stored document skips its work. Every landed rendering with a new input hash is written back.
 */
export interface DocumentCache {
  /** The stored documents, for the process's first snapshot (`buildSnapshot`'s `seeded`). */
  seeded: ReadonlyMap<string, SeededDocument>;
  /** The stored body and input hash of a document, for its renderer. */
  known(name: string): KnownDocument | undefined;
  /** Writes a landed document in the background when its input hash is new; failures are logged and retried. */
  persist(landed: LandedDocument): void;
  /** Waits for the write under way and drops the retries (the store is about to close). */
  close(): Promise<void>;
}

export interface DocumentCacheOptions {
  onError(error: unknown): void;
  /** Delay before a failed write is tried again (a busy SQLite file: an import holds the lock). */
  retryMs?: number;
  /** Tries per document before giving up until its next rendering. */
  attempts?: number;
  now?: () => number;
}

/** Reads the stored renderings of `renderers`; a store that cannot be read means a cold start, as before. */
export async function openDocumentCache(
  store: DocumentCacheStore,
  renderers: readonly SlowRenderer[],
  options: DocumentCacheOptions,
): Promise<DocumentCache> {
  const now = options.now ?? Date.now;
  const seeded = new Map<string, SeededDocument>();
  const known = new Map<string, KnownDocument>();
  for (const r of renderers) {
    let stored: StoredDocument | undefined;
    try {
      stored = await store.read(r.name);
    } catch (error) {
      options.onError(error);
    }
    if (!stored) continue;
    // Served with the date it had (same bytes, same validators after a restart), never a future one:
    // its successor gets max(publication time, this date), so Last-Modified never goes back (snapshot.ts).
    // Not parsed here: its readers (MCP's get_insights, the pages) parse the bytes when asked (insights-value.ts).
    const document = createRepresentation(stored.body, r.contentType, Math.min(stored.lastModified, now()), stored.weakDate);
    seeded.set(r.name, { document });
    known.set(r.name, { inputHash: stored.inputHash, body: stored.body });
  }

  // The next write of each document: a newer rendering replaces one still waiting.
  const pending = new Map<string, { document: StoredDocument; attempt: number }>();
  let writing: Promise<void> | null = null;
  const retries = new Map<string, NodeJS.Timeout>();
  let closed = false;
  const written = new Map([...known].map(([name, k]) => [name, k.inputHash]));

  function drain(): void {
    const job = pending.values().next().value;
    if (writing || closed || !job) return;
    const { name } = job.document;
    pending.delete(name);
    writing = store
      .write(job.document)
      .then(
        () => void written.set(name, job.document.inputHash),
        (error: unknown) => {
          options.onError(error);
          // Retried unless a newer rendering of the same document is already waiting.
          if (job.attempt < (options.attempts ?? 3) && !pending.has(name)) {
            const retry = setTimeout(() => {
              retries.delete(name);
              if (!pending.has(name)) pending.set(name, { document: job.document, attempt: job.attempt + 1 });
              drain();
            }, options.retryMs ?? 5000);
            retry.unref();
            retries.set(name, retry);
          }
        },
      )
      .finally(() => {
        writing = null;
        drain();
      });
  }

  return {
    seeded,
    known: (name) => known.get(name),
    persist(landed) {
      // From the first landing on, every snapshot has a previous one: the seed is not needed again.
      seeded.delete(landed.name);
      if (!landed.inputHash || written.get(landed.name) === landed.inputHash) return;
      const d = landed.document;
      pending.set(landed.name, {
        document: {
          name: landed.name,
          inputHash: landed.inputHash,
          body: d.body.toString('utf8'),
          lastModified: d.lastModified,
          weakDate: d.weakDate ?? false,
          renderedAt: new Date(now()).toISOString(),
        },
        attempt: 1,
      });
      clearTimeout(retries.get(landed.name));
      retries.delete(landed.name);
      drain();
    },
    async close() {
      closed = true;
      for (const t of retries.values()) clearTimeout(t);
      retries.clear();
      await writing;
    },
  };
}
