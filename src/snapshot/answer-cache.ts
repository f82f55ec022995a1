import { DEFAULT_MEMO_BUDGETS } from './snapshot-memo.js';
import type { Snapshot } from './snapshot.js';

/**
 * Transitional, for `src/mcp` only: the earlier per-snapshot answer cache and the process-wide search
 * budget its callers read, unchanged. Every other caller keeps its answers in the snapshot's memo
 * (`snapshot.memo.bucket(handle)`, snapshot-memo.ts), whose budgets come from the configuration; this
 * file goes once the MCP tools do the same.
 */

/** @deprecated see above. */
export const DEFAULT_SEARCH_CACHE_BYTES = DEFAULT_MEMO_BUDGETS.search;
let legacySearchBudget = DEFAULT_SEARCH_CACHE_BYTES;

/** @deprecated SEARCH_CACHE_BYTES for src/mcp's own caches, set by the composition root; see above. */
export function setSearchCacheBudget(bytes: number): void {
  legacySearchBudget = bytes;
}

/** @deprecated see above. */
export function searchCacheBudget(): number {
  return legacySearchBudget;
}

/**
 * Answers of one kind cached per snapshot within a byte budget, least recently used first out. A
 * snapshot's answer to the same request is always the same bytes, so an answer is kept until its
 * snapshot is dropped (the WeakMap lets it go with the snapshot) or the budget needs its room; an answer
 * larger than the whole budget is served but not kept, only shared (see `oversize`), and a budget of 0
 * keeps and shares nothing. Since answers (issue 11, M3: 64 old dates at 50k reviews used to keep
 * 1.7 GB) and search answers (issue 15: a repeated search costs a lookup and a write) each have one.
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
  /**
   * Whether `key` was asked of `snapshot` before (this call counts as asking), or its answer is kept.
   * A caller keeps answers from their second request on: most queries asked once are not asked again,
   * and keeping them would push out those that are (and cost an allocation each, issue 15).
   */
  askedBefore(snapshot: Snapshot, key: string): boolean;
}

interface Entries<T extends object> {
  map: Map<string, T>;
  bytes: number;
  /** Keys asked once, not kept: at most ASKED_CHARS characters of them, then forgotten all at once. */
  asked: Set<string>;
  askedChars: number;
  /**
   * Answers larger than the budget, held weakly: until the collector reclaims one, requests for it share
   * it instead of each building a copy (a since answer for an old date is 36 MB at 100k reviews, and ten
   * concurrent clients each built and hashed their own: 688 MB, issue 15 memory row). Best effort by
   * design: nothing is kept alive for it, so it lasts until the next collection that finds it unused.
   */
  oversize: Map<string, WeakRef<T>>;
}

/** Keys of oversize answers remembered per snapshot, then forgotten all at once. */
const OVERSIZE_KEYS = 64;

const ASKED_CHARS = 256 * 1024;

/** `budget` is read on each use, so a configured limit applies to the caches made before it was set. */
/** @deprecated see above: a memo bucket. */
export function createAnswerCache<T extends { body: Buffer }>(budget: () => number): AnswerCache<T> {
  const caches = new WeakMap<Snapshot, Entries<T>>();
  // A key is held beside its answer, so it counts (UTF-16, two bytes a character).
  const sizeOf = (key: string, answer: T) => answer.body.length + 2 * key.length;
  const entriesOf = (snapshot: Snapshot): Entries<T> => {
    let entries = caches.get(snapshot);
    if (!entries) caches.set(snapshot, (entries = { map: new Map(), bytes: 0, asked: new Set(), askedChars: 0, oversize: new Map() }));
    return entries;
  };
  const cache: AnswerCache<T> = {
    peek(snapshot, key) {
      if (budget() === 0) return undefined;
      const entries = caches.get(snapshot);
      if (!entries) return undefined;
      const hit = entries.map.get(key);
      if (hit) {
        entries.map.delete(key);
        entries.map.set(key, hit); // most recently used last
        return hit;
      }
      const weak = entries.oversize.get(key);
      if (weak === undefined) return undefined;
      const shared = weak.deref();
      if (shared === undefined) entries.oversize.delete(key);
      return shared;
    },
    put(snapshot, key, answer) {
      const limit = budget();
      const size = sizeOf(key, answer);
      if (limit === 0) return;
      const entries = entriesOf(snapshot);
      if (size > limit) {
        if (entries.oversize.size >= OVERSIZE_KEYS) entries.oversize.clear();
        entries.oversize.set(key, new WeakRef(answer));
        return;
      }
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
    askedBefore(snapshot, key) {
      if (budget() === 0) return false;
      const entries = entriesOf(snapshot);
      if (entries.map.has(key)) return true;
      if (entries.asked.delete(key)) {
        entries.askedChars -= key.length;
        return true;
      }
      if (entries.askedChars + key.length > ASKED_CHARS) {
        entries.asked.clear();
        entries.askedChars = 0;
      }
      entries.asked.add(key);
      entries.askedChars += key.length;
      return false;
    },
  };
  return cache;
}
