/**
 * Cooperative time slicing for work done on the event loop between requests: a snapshot
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

/** Work that runs on in the background and is finished on the spot by whoever needs it first. */
export interface Deferred<T> {
  /** The result: finishes the remaining steps synchronously when the background has not yet. */
  get(): T;
  /** Settles when the steps are done, by the background or by `get`. */
  readonly done: Promise<T>;
}

/**
 * Runs `steps` in slices like `runSliced`, from when `after` settles, except that `get()` completes them
 * at once (start-up time: the first snapshot is published before its search index is built, which
 * begins once the server listens, and a search that arrives before it is done builds the rest on its
 * own request).
 */
export function runDeferred<T>(steps: Generator<void, T>, slicer: TimeSlicer, after: Promise<unknown> = Promise.resolve()): Deferred<T> {
  let result: { value: T } | { error: unknown } | null = null;
  let settle!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const done = new Promise<T>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // A failure is reported to whoever asks (get() throws it, done rejects), not as an unhandled rejection.
  done.catch(() => undefined);
  const end = (outcome: { value: T } | { error: unknown }) => {
    result = outcome;
    if ('value' in outcome) settle(outcome.value);
    else fail(outcome.error);
  };
  const step = (finish: boolean) => {
    try {
      for (;;) {
        const next = steps.next();
        if (next.done) return end({ value: next.value });
        if (!finish) return;
      }
    } catch (error) {
      end({ error });
    }
  };
  void (async () => {
    // Starts once `after` settles and the caller's synchronous work is done, then a step per slice.
    await after.catch(() => undefined);
    await slicer.pause();
    while (result === null) {
      step(false);
      if (result === null) await slicer.pause();
    }
  })();
  return {
    get() {
      if (result === null) step(true);
      const outcome = result!;
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    },
    done,
  };
}
