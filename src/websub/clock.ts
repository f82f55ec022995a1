/** Time, injected: the worker reads the clock and sets timers only through these (tests drive them). */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export interface Scheduler {
  /** Runs `fn` after `ms`; returns a cancel function. Timers never keep the process alive. */
  setTimeout(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = { now: () => Date.now() };

export const systemScheduler: Scheduler = {
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  },
};

/** The slice of a pino/Fastify logger the hub uses. */
export interface HubLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
