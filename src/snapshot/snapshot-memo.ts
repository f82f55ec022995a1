/**
 * What a snapshot keeps of the answers computed from it: one memo per snapshot, created with it and
 * dropped with it, so nothing outlives the data it was computed from and no module keeps a cache of
 * its own. A memo has named buckets of answers, each within the byte budget the configuration gives
 * it (`MemoBudgets`, passed in by whoever builds snapshots), and values computed once per snapshot
 * (a parsed document, the headers a route shares).
 *
 * A caller reaches a bucket or a value through a handle it defines once (`memoBucket`, `memoValue`):
 * the handle names the bucket (whose budget its answers share with every other handle of that bucket)
 * and its own part of the bucket's keys, and carries the type held.
 */

/** Byte budgets of the named buckets (README "Limits"). 0 keeps nothing in that bucket. */
export interface MemoBudgets {
  /** SEARCH_CACHE_BYTES: search answers. */
  search: number;
  /** SINCE_CACHE_BYTES: since answers. */
  since: number;
  /** PAGE_CACHE_BYTES: the public pages, sitemaps and discovery documents. */
  pages: number;
  /** SEARCH_CACHE_BYTES as well: MCP tool-call replies (a tool may read a document: get_insights). */
  replies: number;
}

export type MemoBucketName = keyof MemoBudgets;

/**
 * Whether a bucket's answers read the snapshot's documents (the pages read the insights) or only its
 * data: a copy of the snapshot with a newly landed document keeps the buckets that do not.
 */
const READS_DOCUMENTS: Readonly<Record<MemoBucketName, boolean>> = { search: false, since: false, pages: true, replies: true };

export const DEFAULT_MEMO_BUDGETS: Readonly<MemoBudgets> = Object.freeze({
  search: 8 * 1024 * 1024,
  since: 32 * 1024 * 1024,
  pages: 16 * 1024 * 1024,
  replies: 8 * 1024 * 1024,
});

/** What a bucket holds: anything that says how many bytes it keeps alive. */
export interface MemoEntry {
  readonly bytes: number;
}

/** Which bucket a caller uses, and its part of the bucket's keys. */
export interface MemoBucketHandle<T extends MemoEntry> {
  readonly bucket: MemoBucketName;
  readonly name: string;
  /** Never set: carries the type. */
  readonly _type?: T;
}

export interface MemoValueHandle<T> {
  readonly name: string;
  readonly readsDocuments: boolean;
  readonly _type?: T;
}

export function memoBucket<T extends MemoEntry>(bucket: MemoBucketName, name: string): MemoBucketHandle<T> {
  return { bucket, name };
}

export function memoValue<T>(name: string, options: { readsDocuments: boolean }): MemoValueHandle<T> {
  return { name, readsDocuments: options.readsDocuments };
}

/**
 * Answers of one kind within a byte budget, least recently used first out. A snapshot's answer to the
 * same request is always the same bytes, so an answer stays until the snapshot goes or the budget needs
 * its room. An answer larger than the whole budget is served but not kept, only shared while something
 * else holds it (`put`); a budget of 0 keeps and shares nothing.
 */
export interface MemoBucket<T extends object> {
  /** The kept answer to `key`, or undefined. A hit becomes the most recently used. */
  peek(key: string): T | undefined;
  /** Keeps `answer` when it fits (its `bytes` read now), dropping the least recently used to make room. */
  put(key: string, answer: T): void;
  /** The kept answer to `key`, or `compute()`'s, kept when it fits. */
  get(key: string, compute: () => T): T;
  /**
   * Whether `key` was asked before (this call counts as asking), or its answer is kept. A caller keeps
   * answers from their second request on: most queries asked once are never asked again, and keeping
   * them would push out those that are.
   */
  askedBefore(key: string): boolean;
  /** Bytes held now (tests and metrics). */
  bytes(): number;
  /** The bucket's budget. */
  readonly budget: number;
}

export interface SnapshotMemo {
  bucket<T extends MemoEntry>(handle: MemoBucketHandle<T>): MemoBucket<T>;
  /** `compute()`'s value, once per snapshot. */
  value<T>(handle: MemoValueHandle<T>, compute: () => T): T;
  /**
   * The memo of a copy of this snapshot with another document: it shares what does not read the
   * documents (search and since answers, the search tags) and starts empty for the rest.
   */
  forNewDocuments(): SnapshotMemo;
}

/** Keys of oversize answers remembered per bucket, then forgotten all at once. */
const OVERSIZE_KEYS = 64;
/** Characters of keys asked once, remembered per bucket, then forgotten all at once. */
const ASKED_CHARS = 256 * 1024;

/** A bucket of answers within `budget` bytes (see MemoBucket), each `sizeOf` bytes. */
export function createMemoBucket<T extends object>(budget: number, sizeOf: (answer: T) => number): MemoBucket<T> {
  const map = new Map<string, { answer: T; size: number }>();
  let held = 0;
  let asked = new Set<string>();
  let askedChars = 0;
  // Answers larger than the budget, held weakly: until the collector reclaims one, requests for it share
  // it instead of each building a copy. Best effort: nothing is kept alive for it.
  const oversize = new Map<string, WeakRef<T>>();
  // A key is held beside its answer, so it counts (UTF-16, two bytes a character).
  const sizeWithKey = (key: string, answer: T) => sizeOf(answer) + 2 * key.length;
  const bucket: MemoBucket<T> = {
    budget,
    peek(key) {
      if (budget === 0) return undefined;
      const hit = map.get(key);
      if (hit) {
        map.delete(key);
        map.set(key, hit); // most recently used last
        return hit.answer;
      }
      const weak = oversize.get(key);
      if (weak === undefined) return undefined;
      const shared = weak.deref();
      if (shared === undefined) oversize.delete(key);
      return shared;
    },
    put(key, answer) {
      if (budget === 0) return;
      const size = sizeWithKey(key, answer);
      const old = map.get(key);
      if (old) {
        map.delete(key);
        held -= old.size;
      }
      if (size > budget) {
        if (oversize.size >= OVERSIZE_KEYS) oversize.clear();
        oversize.set(key, new WeakRef(answer));
        return;
      }
      for (const [oldKey, entry] of map) {
        if (held + size <= budget) break;
        map.delete(oldKey);
        held -= entry.size;
      }
      map.set(key, { answer, size });
      held += size;
    },
    get(key, compute) {
      const hit = bucket.peek(key);
      if (hit) return hit;
      const answer = compute();
      bucket.put(key, answer);
      return answer;
    },
    askedBefore(key) {
      if (budget === 0) return false;
      if (map.has(key)) return true;
      if (asked.delete(key)) {
        askedChars -= key.length;
        return true;
      }
      if (askedChars + key.length > ASKED_CHARS) {
        asked = new Set();
        askedChars = 0;
      }
      asked.add(key);
      askedChars += key.length;
      return false;
    },
    bytes: () => held,
  };
  return bucket;
}

interface MemoState {
  buckets: Map<MemoBucketName, MemoBucket<MemoEntry>>;
  /** Each handle's view of its bucket (its keys prefixed with its name). */
  views: Map<MemoBucketHandle<MemoEntry>, MemoBucket<MemoEntry>>;
  values: Map<MemoValueHandle<unknown>, unknown>;
}

/** `bucket` as seen by one handle: its keys apart from every other handle's. */
function viewOf<T extends MemoEntry>(bucket: MemoBucket<MemoEntry>, name: string): MemoBucket<T> {
  const prefix = `${name}\n`;
  const inner = bucket as MemoBucket<T>;
  return {
    budget: bucket.budget,
    peek: (key) => inner.peek(prefix + key),
    put: (key, answer) => inner.put(prefix + key, answer),
    get: (key, compute) => inner.get(prefix + key, compute),
    askedBefore: (key) => inner.askedBefore(prefix + key),
    bytes: () => inner.bytes(),
  };
}

/** A snapshot's memo, its buckets within `budgets`. */
export function createSnapshotMemo(budgets: Readonly<MemoBudgets> = DEFAULT_MEMO_BUDGETS): SnapshotMemo {
  return memoOf(budgets, { buckets: new Map(), views: new Map(), values: new Map() });
}

function memoOf(budgets: Readonly<MemoBudgets>, state: MemoState): SnapshotMemo {
  return {
    bucket<T extends MemoEntry>(handle: MemoBucketHandle<T>): MemoBucket<T> {
      const known = state.views.get(handle);
      if (known) return known as MemoBucket<T>;
      let bucket = state.buckets.get(handle.bucket);
      if (!bucket) state.buckets.set(handle.bucket, (bucket = createMemoBucket<MemoEntry>(budgets[handle.bucket], (a) => a.bytes)));
      const view = viewOf<T>(bucket, handle.name);
      state.views.set(handle, view);
      return view;
    },
    value<T>(handle: MemoValueHandle<T>, compute: () => T): T {
      if (state.values.has(handle)) return state.values.get(handle) as T;
      const value = compute();
      state.values.set(handle, value);
      return value;
    },
    forNewDocuments() {
      const carried: MemoState = { buckets: new Map(), views: new Map(), values: new Map() };
      for (const [name, bucket] of state.buckets) if (!READS_DOCUMENTS[name]) carried.buckets.set(name, bucket);
      for (const [handle, view] of state.views) if (!READS_DOCUMENTS[handle.bucket]) carried.views.set(handle, view);
      for (const [handle, value] of state.values) if (!handle.readsDocuments) carried.values.set(handle, value);
      return memoOf(budgets, carried);
    },
  };
}
