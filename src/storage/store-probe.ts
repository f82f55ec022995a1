/**
 * Whether the store answers, for readiness (contract §8: 503 "while the store is unreachable"). A slow
 * answer is not an absent one: a readiness probe that fails whenever a read takes longer than the
 * probe's patience takes every replica out of the load balancer at once under load, when they all
 * still serve their snapshots. So the store counts as unreachable when a read fails, or when one has
 * gone unanswered for `unreachableMs`; while a read is merely slower than `answerMs`, the previous
 * verdict stands and the check answers at once.
 */
export interface StoreProbeOptions {
  /** A cheap read of the store (the change counter). */
  read(): Promise<unknown>;
  /** How long a check waits for the read before answering from the previous verdict (default 1 s). */
  answerMs?: number;
  /** A read unanswered for this long means the store is unreachable (default 10 s). */
  unreachableMs?: number;
  now?: () => number;
}

export interface StoreProbe {
  /** Resolves when the store answers (or is only slow to); rejects with the reason when it does not. */
  check(): Promise<void>;
}

interface Read {
  started: number;
  settled: Promise<void>;
  done: boolean;
}

export function createStoreProbe(options: StoreProbeOptions): StoreProbe {
  const answerMs = options.answerMs ?? 1000;
  const unreachableMs = options.unreachableMs ?? 10_000;
  const now = options.now ?? Date.now;
  // The store answered the first snapshot's reads before anything asks whether it is ready.
  let failure: Error | null = null;
  let inFlight: Read | null = null;

  const start = (): Read => {
    const read: Read = { started: now(), done: false, settled: Promise.resolve() };
    read.settled = options.read().then(
      () => {
        read.done = true;
        if (inFlight === read) failure = null;
      },
      (error: unknown) => {
        read.done = true;
        if (inFlight === read) failure = error instanceof Error ? error : new Error(String(error));
      },
    );
    return read;
  };

  return {
    async check() {
      // One read at a time: concurrent checks share it, so a slow store is not asked ever more often.
      // A read that never answers (a connection lost without a word) is given up for a fresh one after
      // unreachableMs; at most one such read is left behind per period.
      if (inFlight === null || inFlight.done || now() - inFlight.started >= unreachableMs) {
        if (inFlight !== null && !inFlight.done) failure = new Error(`the store did not answer within ${unreachableMs} ms`);
        inFlight = start();
      }
      const read = inFlight;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([read.settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, answerMs)))]);
      clearTimeout(timer);
      if (!read.done && now() - read.started >= unreachableMs) {
        failure = new Error(`the store did not answer within ${unreachableMs} ms`);
      }
      if (failure) throw failure;
    },
  };
}
