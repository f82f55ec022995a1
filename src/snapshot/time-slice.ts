/**
 * Cooperative time slicing for work done on the event loop between requests (issue 11, M2): a snapshot
 * build at 50k reviews is seconds of work, and run in one piece it stopped every request for that long.
 * The build checks `due()` in its loops and awaits `pause()` when its slice is used up, so requests are
 * answered between slices while the previous snapshot keeps serving.
 */
export interface TimeSlicer {
  /** True when the current slice is used up: the caller should `await pause()`. */
  due(): boolean;
  /** Yields to the event loop (after pending I/O, so waiting requests run) and starts a new slice. */
  pause(): Promise<void>;
}

/** A slice long enough to amortize the yield, short enough to stay near an idle request's latency. */
export const DEFAULT_SLICE_MS = 8;

export function createTimeSlicer(sliceMs = DEFAULT_SLICE_MS): TimeSlicer {
  let sliceStart = performance.now();
  return {
    due: () => performance.now() - sliceStart >= sliceMs,
    pause: () =>
      new Promise((resolve) =>
        setImmediate(() => {
          sliceStart = performance.now();
          resolve();
        }),
      ),
  };
}

/** Never yields: for one-shot tools and tests, where nothing else waits for the loop. */
export const UNSLICED: TimeSlicer = { due: () => false, pause: () => Promise.resolve() };

/**
 * Work written as a generator that yields between its parts: `runSync` runs it to the end, `runSliced`
 * pauses at each yield, so one piece of code serves tests and one-shot tools as well as a server.
 */
export function runSync<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export async function runSliced<T>(steps: Generator<void, T>, slicer: TimeSlicer): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await slicer.pause();
  }
}
