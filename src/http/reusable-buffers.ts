/**
 * Buffers for answers that are sent once and not kept (such as a search asked for the first time),
 * handed back when the response has finished writing and reused by the next answer.
 *
 * Why not a new Buffer per answer: each one is a separate off-heap allocation, and V8 starts a full
 * garbage collection every few tens of megabytes of them. A full collection marks the whole heap, which
 * at 100,000 reviews holds every review's parsed form: 16 kB answers made the first-time search about
 * three times as expensive at 100k as at 10k (bench/foundation.ts, `search-uncached`; docs/benchmarks.md).
 * Buffers here are reused instead, so a steady load of one-off answers allocates nothing off-heap.
 *
 * Sizes are rounded up to a power of two between MIN_SIZE and MAX_SIZE; a larger answer gets a buffer of
 * its own, which is simply not kept. At most `keepBytes` of idle buffers are kept.
 */
export interface ReusableBuffers {
  /** A buffer of exactly `size` bytes, its contents undefined; give it back once nothing reads it. */
  take(size: number): Buffer;
  /** Hands back a buffer from take(): it will be given out again, so nothing may read it after this. */
  give(buffer: Buffer): void;
  /** Bytes held idle now (tests). */
  idleBytes(): number;
}

const MIN_SIZE = 4096;
const MAX_SIZE = 1 << 20;

export function createReusableBuffers(keepBytes = 2 * 1024 * 1024): ReusableBuffers {
  // Idle ArrayBuffers by size; a taken buffer is a view of one, so give() finds it again.
  const idle = new Map<number, ArrayBuffer[]>();
  // Guards against a buffer handed back twice, which would give it to two answers at once.
  const isIdle = new WeakSet<ArrayBuffer>();
  let idleBytes = 0;
  return {
    take(size) {
      if (size > MAX_SIZE) return Buffer.allocUnsafe(size);
      let capacity = MIN_SIZE;
      while (capacity < size) capacity *= 2;
      const store = idle.get(capacity)?.pop();
      if (store) {
        idleBytes -= capacity;
        isIdle.delete(store);
      }
      return Buffer.from(store ?? new ArrayBuffer(capacity), 0, size);
    },
    give(buffer) {
      const store = buffer.buffer;
      const capacity = store.byteLength;
      // Only whole buffers of ours: a size class, at offset 0 (Buffer.allocUnsafe's pool never is one).
      if (buffer.byteOffset !== 0 || capacity < MIN_SIZE || capacity > MAX_SIZE || (capacity & (capacity - 1)) !== 0) return;
      if (!(store instanceof ArrayBuffer) || isIdle.has(store) || idleBytes + capacity > keepBytes) return;
      let list = idle.get(capacity);
      if (!list) idle.set(capacity, (list = []));
      list.push(store);
      isIdle.add(store);
      idleBytes += capacity;
    },
    idleBytes: () => idleBytes,
  };
}
