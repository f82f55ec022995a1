import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * Gives the memory of a build back once the process is idle, so its resident memory falls again.
 *
 * Building a snapshot allocates fast and keeps much of what it allocates, so V8 grows its young
 * generation to its maximum (two 16 MB semi-spaces on a 64-bit machine with a few GB) and leaves the
 * build's dead objects and buffers in the heap. V8 shrinks both only in a memory-reducing collection,
 * which its memory reducer starts when the allocation rate of the last ten collections looks low: with a
 * build among them that took about 70 s of idling at 10,000 reviews, so an idle server kept about 40 MB
 * it did not use (the young generation alone is 32 MB). Node 20 has no public call for that collection
 * but the inspector's `HeapProfiler.collectGarbage` (V8's low-memory notification), an atomic
 * collection that stops the main thread for its duration. So it runs only:
 * - after a snapshot (or a slow document that landed into one) the process has not collected after,
 * - once the event loop has been quiet for `quietChecks` checks in a row, 5 s by default (a request or
 *   a rebuild in between starts the count again; on a loaded machine a start's first request can take
 *   seconds to arrive, and the collection should not come before it),
 * - while the heap is small enough for a short pause (`maxHeapBytes`): at 100,000 reviews it took
 *   seconds on a loaded machine, and there the memory target is met without it.
 * The server runs it across hidden-class anchors (ops/hidden-class-anchors.ts): without them it would
 * leave the code that makes requests several times slower.
 */
export interface IdleMemoryOptions {
  /**
   * The current snapshot: a different object than at the last collection means new garbage; null while
   * it is not complete (a slow document is being rendered: nothing is collected meanwhile).
   */
  current(): object | null;
  /** The memory-reducing collection; `collectGarbage` by default. */
  collect?(): Promise<void>;
  /** Milliseconds between checks. */
  checkMs?: number;
  /** Consecutive quiet checks before collecting. */
  quietChecks?: number;
  /** Share of a check's time the event loop may have been busy and still count as quiet. */
  quietUtilization?: number;
  /** No collection while the V8 heap in use is larger than this. */
  maxHeapBytes?: number;
  /** Heap in use, bytes (`v8.getHeapStatistics().used_heap_size` by default). */
  heapUsed?(): number;
  /** The event loop's utilization since the last call (perf_hooks by default). */
  utilization?(): number;
  onError?(error: unknown): void;
}

export interface IdleMemory {
  /** One check: collects when the conditions above hold; resolves when done. Called by the timer. */
  check(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * The pause grows with the live heap: two full collections of the 37 MB heap of 10,000 reviews stopped the
 * main thread for 0.3-0.8 s on two cores at load average 10-15, of the 180 MB of 100,000 reviews for 3 s.
 */
export const MAX_HEAP_BYTES = 128 * 1024 * 1024;

export function startIdleMemory(options: IdleMemoryOptions): IdleMemory {
  const checkMs = options.checkMs ?? 1000;
  const quietChecks = options.quietChecks ?? 5;
  const quietUtilization = options.quietUtilization ?? 0.05;
  const maxHeapBytes = options.maxHeapBytes ?? MAX_HEAP_BYTES;
  const heapUsed = options.heapUsed ?? (() => v8.getHeapStatistics().used_heap_size);
  const utilization = options.utilization ?? eventLoopUtilization();
  const collect = options.collect ?? collectGarbage;
  let collected: object | null = null;
  let quiet = 0;
  let running: Promise<void> | null = null;
  let stopped = false;

  async function check(): Promise<boolean> {
    if (stopped || running) return false;
    quiet = utilization() <= quietUtilization ? quiet + 1 : 0;
    const current = options.current();
    if (quiet < quietChecks || current === null || current === collected || heapUsed() > maxHeapBytes) return false;
    collected = current;
    quiet = 0;
    running = collect().finally(() => (running = null));
    try {
      await running;
    } catch (error) {
      options.onError?.(error);
      return false;
    }
    return true;
  }

  const timer = setInterval(() => void check(), checkMs);
  timer.unref();
  return {
    check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

/** The main thread's event loop utilization over the time since the previous call. */
function eventLoopUtilization(): () => number {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return share;
  };
}

/**
 * V8's low-memory notification through the inspector's in-process session (no debugger, no port): a
 * full, memory-reducing collection that also shrinks the young generation. Resolves once done; rejects
 * where Node was built without the inspector.
 */
export async function collectGarbage(): Promise<void> {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  try {
    await new Promise<void>((resolve, reject) => session.post('HeapProfiler.collectGarbage', (err) => (err ? reject(err) : resolve())));
  } finally {
    // Not from within the reply's callback: a session disconnected there keeps Node 20's event loop
    // alive for good, so the process never exits (measured with 20.20).
    await new Promise<void>((resolve) => setImmediate(resolve));
    session.disconnect();
  }
}
