import type { WebSubStore } from '../../src/domain/websub-ports.js';
import type { CallbackClient } from '../../src/websub/callback-client.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Watches a hub worker from outside, through what it calls (the store and the callback client), so a
 * test can wait until it has nothing left to do using only its real entry point, `wake()`.
 */
export function createHubWatch() {
  let inFlight = 0;
  // Work that changed something: a request sent, or a claim or topic record that found work.
  let progress = 0;
  const track = <T>(p: Promise<T>, counts: (value: T) => boolean): Promise<T> => {
    inFlight++;
    return p.then(
      (value) => {
        inFlight--;
        if (counts(value)) progress++;
        return value;
      },
      (error: unknown) => {
        inFlight--;
        progress++;
        throw error;
      },
    );
  };
  const found = (value: unknown) => (Array.isArray(value) ? value.length > 0 : typeof value === 'number' ? value > 0 : value !== null);

  return {
    /** The store, with every call watched. */
    store(store: WebSubStore): WebSubStore {
      return new Proxy(store, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => track((value as (...a: unknown[]) => Promise<unknown>).apply(target, args), found);
        },
      });
    },
    /** The client, with every request watched. */
    client(client: CallbackClient): CallbackClient {
      return {
        get: (...args) => track(client.get(...args), () => true),
        post: (...args) => track(client.post(...args), () => true),
        close: () => client.close(),
      };
    },
    /** Wakes the worker until a round finds nothing to do and nothing is in flight. */
    async settle(wake: () => void): Promise<void> {
      for (;;) {
        const before = progress;
        wake();
        // Quiet for a few turns of the event loop: group commits wait one turn before they write.
        for (let quiet = 0; quiet < 3; quiet++) {
          await turn();
          if (inFlight > 0) quiet = -1;
        }
        if (progress === before) return;
      }
    },
  };
}
