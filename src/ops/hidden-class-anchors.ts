import { createHook } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Live objects of the kinds a request makes, held across memory-reducing collections so that V8 keeps
 * their hidden classes (docs/decisions.md, "The idle collection stays, and keeps one live object of
 * each hot kind").
 *
 * Why: V8 caches the hidden classes an object passes through as it gets its properties, and each call
 * site's feedback holds them weakly. A memory-reducing collection (the low-memory notification of
 * ops/idle-memory.ts) keeps no hidden class that no live object uses. Run while the server is idle, it
 * freed those of `process.nextTick`'s entries and of node:http's requests and responses; the next
 * objects of those kinds got new ones, and the call sites that set their symbol-keyed properties went
 * megamorphic for good, each such store a call into V8's runtime. At 10,000 reviews that held the 304
 * at 0.6x of a raw node:http server (docs/benchmarks.md, "Hidden classes lost to the idle collection").
 *
 * What is held: one `nextTick` entry (a no-op callback), taken afresh before each collection, and the
 * request and response of the first request after each collection, held from its arrival until the
 * next collection's first request replaces them (the socket closes as usual; the two objects, and the
 * listeners still attached to them, stay: bounded, one exchange). Taken afresh, each has the hidden
 * class current code makes, not one a later change of a field's representation has retired.
 */
export interface HiddenClassAnchors {
  /** Runs a memory-reducing `collect` with the anchors held: a fresh `nextTick` entry before it. */
  across(collect: () => Promise<void>): Promise<void>;
  /** Every request node:http hands the server; kept when none is held since the last collection. */
  offerHttp(request: IncomingMessage, response: ServerResponse): void;
  /** The kinds held now. */
  held(): string[];
}

export function createHiddenClassAnchors(): HiddenClassAnchors {
  let tick: object | null = captureTickObject();
  let http: { request: IncomingMessage; response: ServerResponse } | null = null;
  let wantHttp = true;
  return {
    async across(collect) {
      tick = captureTickObject() ?? tick;
      try {
        await collect();
      } finally {
        // The next request's pair replaces this one: the classes current code makes.
        wantHttp = true;
      }
    },
    offerHttp(request, response) {
      if (!wantHttp) return;
      http = { request, response };
      wantHttp = false;
    },
    held: () => [...(tick ? ['nextTick entry'] : []), ...(http ? ['http request', 'http response'] : [])],
  };
}

/**
 * One of Node's own `process.nextTick` entries (an object literal with computed symbol keys), or null.
 * It relies on what Node's async_hooks documentation lists but discourages: `createHook`, enabled here
 * for one `nextTick` only, whose `init` receives the entry as the `TickObject` resource. Enabling a hook
 * with `init` also sets V8's promise hooks, which leaves every later `await` a little dearer for the
 * life of the process, disabled or not (docs/decisions.md, the idle-collection bullet, gives the cost).
 */
function captureTickObject(): object | null {
  let captured: object | null = null;
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
  return captured;
}

function noop(): void {}
