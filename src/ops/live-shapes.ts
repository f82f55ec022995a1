import { createHook } from 'node:async_hooks';

/**
 * One live object of each kind the hot paths make, kept for as long as the process collects
 * memory-reducing garbage (ops/idle-memory.ts).
 *
 * Why: V8 caches the hidden classes an object passes through as it gets its properties, and each
 * call site's feedback holds them weakly. A memory-reducing collection (the low-memory notification
 * the idle collection asks for, or V8's own memory reducer) keeps no hidden class that no live object
 * uses, so when it runs while the server is idle the classes of `process.nextTick`'s entries and of
 * node:http's requests and responses die; the next objects of those kinds get new ones, and the call
 * sites that set their symbol-keyed properties go megamorphic for good: each such store becomes a
 * runtime call, on Node 20, 22 and 24 alike. At 10,000 reviews that took the 304 from the raw
 * node:http server's rate to 0.6x of it (docs/benchmarks.md, "Hidden classes lost to the idle
 * collection"). One live object of each kind keeps its classes, and the feedback stays monomorphic.
 */
export interface LiveShapes {
  /** Keeps `value` as the live example of `kind`, unless one is kept already. */
  keep(kind: string, value: object): void;
  /** The kinds kept so far. */
  kinds(): string[];
}

export function createLiveShapes(): LiveShapes {
  const kept = new Map<string, object>();
  const keep = (kind: string, value: object) => {
    if (!kept.has(kind)) kept.set(kind, value);
  };
  const tick = captureTickObject();
  if (tick) keep('nextTick entry', tick);
  return { keep, kinds: () => [...kept.keys()] };
}

/**
 * One of Node's own `process.nextTick` entries (an object literal with computed symbol keys), or null.
 * Taken from an async hook's `init`, enabled for one `nextTick` only: async hooks are the one public
 * way to see the object Node queues. It holds a no-op callback and nothing else.
 */
function captureTickObject(): object | null {
  let captured: object | null = null;
  try {
    const hook = createHook({
      init(_asyncId, type, _triggerAsyncId, resource) {
        if (type === 'TickObject' && captured === null) captured = resource;
      },
    });
    hook.enable();
    try {
      process.nextTick(noop);
    } finally {
      hook.disable();
    }
  } catch {
    // No async hooks here (another runtime): collections still work, only later ticks are slower.
  }
  return captured;
}

function noop(): void {}
