/**
 * The `query` index (contract §4: a case-insensitive substring of the title or the text). Every text is
 * cut into tokens at whitespace and ASCII punctuation; a query without those characters can only occur
 * inside one token, so the reviews containing it are the union of the posting lists of the vocabulary
 * words that contain it. A query with separators is looked up by its longest piece and each candidate
 * checked with `includes`, which keeps the answer exact.
 *
 * Built by `warm` in time slices before a rebuilt snapshot is published (built by the
 * first query instead, it stopped every request for half a second at 50k reviews), or on the first
 * query when nothing warmed it; each query's answer is kept in a small cache, as the same searches come
 * again and again.
 */
import type { TimeSlicer } from './time-slice.js';

const SEPARATORS = /[\s\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]+/;
const CACHE_SIZE = 256;

export interface QueryMatches {
  /** Ascending positions whose title or text contains the query. */
  positions: Int32Array;
  /** 1 at each position in `positions`. */
  mark: Uint8Array;
}

export interface TextIndex {
  /** `q` must already be lower-cased. */
  matches(q: string): QueryMatches;
  /** Builds the index now, yielding to the event loop between slices; idempotent. */
  warm(slicer: TimeSlicer): Promise<void>;
}

/**
 * Over `textOf(pos)` and `titleOf(pos)` for positions [0, n), lower-cased here; a match must not span
 * the two. The index holds no copy of the texts (to save memory: at 100k reviews a lower-cased copy
 * was about 60 MB): the few checks that need the text lower-case it again, and each posting list is
 * kept as an Int32Array once built (half the size of an array of numbers).
 */
export function createTextIndex(n: number, textOf: (pos: number) => string, titleOf: (pos: number) => string | null): TextIndex {
  let postings: Map<string, Int32Array> | null = null;
  let building: Map<string, number[]> | null = null;
  let compacting: IterableIterator<[string, number[]]> | null = null;
  const compact = new Map<string, Int32Array>();
  let next = 0;
  const cache = new Map<string, QueryMatches>();

  /** Indexes positions from `next` on, then compacts the lists, until done or the slicer says stop; true when done. */
  function step(slicer: TimeSlicer | null): boolean {
    const map = (building ??= new Map());
    for (; next < n; next++) {
      const tokens = new Set(textOf(next).toLowerCase().split(SEPARATORS));
      const title = titleOf(next);
      if (title) for (const t of title.toLowerCase().split(SEPARATORS)) tokens.add(t);
      for (const t of tokens) {
        if (t === '') continue;
        const list = map.get(t);
        if (list) list.push(next);
        else map.set(t, [next]);
      }
      if (slicer?.due()) {
        next++;
        return false;
      }
    }
    compacting ??= map.entries();
    for (let e = compacting.next(); !e.done; e = compacting.next()) {
      compact.set(e.value[0], Int32Array.from(e.value[1]));
      if (slicer?.due()) return false;
    }
    postings = compact;
    building = null;
    return true;
  }

  function built(): Map<string, Int32Array> {
    if (!postings) step(null);
    return postings!;
  }

  // A text contains q, compared lower-cased. q is lower-case, and lower-casing never turns a letter into
  // a separator or changes a character that is already lower-case, so a text that holds q as written
  // matches without a lower-cased copy being made; only the others are lower-cased, one at a time.
  const holds = (text: string | null, q: string) => text !== null && (text.includes(q) || text.toLowerCase().includes(q));
  const contains = (pos: number, q: string) => holds(textOf(pos), q) || holds(titleOf(pos), q);

  /** Marks the positions whose tokens include `piece` (a run of the query without separators). */
  function markPiece(map: Map<string, Int32Array>, piece: string, mark: Uint8Array): void {
    for (const [token, list] of map) if (token.includes(piece)) for (const pos of list) mark[pos] = 1;
  }

  function compute(q: string): QueryMatches {
    let mark = new Uint8Array(n);
    const pieces = q.split(SEPARATORS).filter((p) => p !== '');
    const map = built();
    if (pieces.length === 0) {
      // Only separators: no token can tell, but lower-casing cannot change separators either, so each
      // text is searched as written (no copy made).
      for (let pos = 0; pos < n; pos++) if (textOf(pos).includes(q) || (titleOf(pos)?.includes(q) ?? false)) mark[pos] = 1;
    } else {
      // Every piece lies inside one token of a matching review: the candidates are in every piece's set.
      markPiece(map, pieces[0]!, mark);
      for (const piece of pieces.slice(1)) {
        const next = new Uint8Array(n);
        markPiece(map, piece, next);
        for (let pos = 0; pos < n; pos++) next[pos]! &= mark[pos]!;
        mark = next;
      }
      if (pieces.length > 1 || pieces[0] !== q) for (let pos = 0; pos < n; pos++) if (mark[pos] && !contains(pos, q)) mark[pos] = 0;
    }
    let count = 0;
    for (let pos = 0; pos < n; pos++) count += mark[pos]!;
    const positions = new Int32Array(count);
    for (let pos = 0, i = 0; pos < n; pos++) if (mark[pos]) positions[i++] = pos;
    return { positions, mark };
  }

  return {
    matches(q) {
      const hit = cache.get(q);
      if (hit) return hit;
      const result = compute(q);
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(q, result);
      return result;
    },
    async warm(slicer) {
      while (!postings) {
        if (step(slicer)) break;
        await slicer.pause();
      }
    },
  };
}
