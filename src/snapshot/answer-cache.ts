import type { Snapshot } from './snapshot.js';

/**
 * Answers of one kind cached per snapshot within a byte budget, least recently used first out. A
 * snapshot's answer to the same request is always the same bytes, so an answer is kept until its
 * snapshot is dropped (the WeakMap lets it go with the snapshot) or the budget needs its room; an answer
 * larger than the whole budget is served but not kept, and a budget of 0 keeps nothing. Since answers
 * (issue 11, M3: 64 old dates at 50k reviews used to keep 1.7 GB) and search answers (issue 15: a
 * repeated search costs a lookup and a write) each have one.
 */
export interface AnswerCache<T extends { body: Buffer }> {
  /** The cached answer to `key` in `snapshot`, or undefined. A hit becomes the most recently used. */
  peek(snapshot: Snapshot, key: string): T | undefined;
  /** Keeps `answer` for `key` when it fits, dropping the least recently used to make room. */
  put(snapshot: Snapshot, key: string, answer: T): void;
  /** The cached answer to `key` in `snapshot`, or `compute()`'s, kept when it fits. */
  get(snapshot: Snapshot, key: string, compute: () => T): T;
  /** Bytes of answers held for `snapshot` now (tests and metrics). */
  bytes(snapshot: Snapshot): number;
}

interface Entries<T> {
  map: Map<string, T>;
  bytes: number;
}

/** `budget` is read on each use, so a configured limit applies to the caches made before it was set. */
export function createAnswerCache<T extends { body: Buffer }>(budget: () => number): AnswerCache<T> {
  const caches = new WeakMap<Snapshot, Entries<T>>();
  // A key is held beside its answer, so it counts (UTF-16, two bytes a character).
  const sizeOf = (key: string, answer: T) => answer.body.length + 2 * key.length;
  const cache: AnswerCache<T> = {
    peek(snapshot, key) {
      if (budget() === 0) return undefined;
      const entries = caches.get(snapshot);
      const hit = entries?.map.get(key);
      if (entries && hit) {
        entries.map.delete(key);
        entries.map.set(key, hit); // most recently used last
      }
      return hit;
    },
    put(snapshot, key, answer) {
      const limit = budget();
      const size = sizeOf(key, answer);
      if (size > limit) return;
      let entries = caches.get(snapshot);
      if (!entries) caches.set(snapshot, (entries = { map: new Map(), bytes: 0 }));
      const old = entries.map.get(key);
      if (old) {
        entries.map.delete(key);
        entries.bytes -= sizeOf(key, old);
      }
      for (const [oldKey, oldAnswer] of entries.map) {
        if (entries.bytes + size <= limit) break;
        entries.map.delete(oldKey);
        entries.bytes -= sizeOf(oldKey, oldAnswer);
      }
      entries.map.set(key, answer);
      entries.bytes += size;
    },
    get(snapshot, key, compute) {
      const hit = cache.peek(snapshot, key);
      if (hit) return hit;
      const answer = compute();
      cache.put(snapshot, key, answer);
      return answer;
    },
    bytes: (snapshot) => caches.get(snapshot)?.bytes ?? 0,
  };
  return cache;
}
