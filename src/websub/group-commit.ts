/**
 * Group commit: items added while a write is in progress go into the next write together, so N
 * concurrent requests cost one transaction (one fsync) instead of N. An idle batcher writes after one
 * turn of the event loop, never on a timer. Each caller's promise settles when its item is durable.
 */
export function createGroupCommit<T, R = void>(write: (items: T[]) => Promise<R[]>, maxBatch = 256) {
  let pending: { item: T; resolve(r: R): void; reject(e: unknown): void }[] = [];
  let running: Promise<void> | null = null;

  async function drain(): Promise<void> {
    while (pending.length > 0) {
      // Let the requests already read in this turn of the event loop join: a synchronous SQLite write
      // (with its fsync) blocks the loop, so without this pause each batch would hold one item.
      await new Promise((resolve) => setImmediate(resolve));
      const batch = pending.slice(0, maxBatch);
      pending = pending.slice(batch.length);
      try {
        const results = await write(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(results[i] as R));
      } catch (error) {
        for (const b of batch) b.reject(error);
      }
    }
  }

  return {
    add(item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        running ??= drain().finally(() => {
          running = null;
        });
      });
    },
  };
}
