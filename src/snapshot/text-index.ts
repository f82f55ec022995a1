/**
 * The `query` index (contract §4: a case-insensitive substring of the title or the text). Every text is
 * cut into tokens at whitespace and ASCII punctuation; a query without those characters can only occur
 * inside one token, so the reviews containing it are the union of the posting lists of the vocabulary
 * words that contain it. A query with separators is looked up by its longest piece and each candidate
 * checked with `includes`, which keeps the answer exact.
 *
 * Built on the first query of a snapshot rather than with it (start-up stays short); each query's
 * answer is kept in a small cache, as the same searches come again and again.
 */

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
}

/** `texts[pos]` and `titles[pos]`: lower-cased; a match must not span the two. */
export function createTextIndex(texts: readonly string[], titles: readonly (string | null)[]): TextIndex {
  const n = texts.length;
  let postings: Map<string, number[]> | null = null;
  const cache = new Map<string, QueryMatches>();

  function build(): Map<string, number[]> {
    const map = new Map<string, number[]>();
    for (let pos = 0; pos < n; pos++) {
      const title = titles[pos];
      const tokens = new Set(texts[pos]!.split(SEPARATORS));
      if (title) for (const t of title.split(SEPARATORS)) tokens.add(t);
      for (const t of tokens) {
        if (t === '') continue;
        const list = map.get(t);
        if (list) list.push(pos);
        else map.set(t, [pos]);
      }
    }
    return map;
  }

  const contains = (pos: number, q: string) => texts[pos]!.includes(q) || (titles[pos]?.includes(q) ?? false);

  function compute(q: string): QueryMatches {
    const mark = new Uint8Array(n);
    const pieces = q.split(SEPARATORS).filter((p) => p !== '');
    const piece = pieces.reduce((a, b) => (b.length > a.length ? b : a), '');
    if (piece === '') {
      // Only separators: no token can tell, check every review.
      for (let pos = 0; pos < n; pos++) if (contains(pos, q)) mark[pos] = 1;
    } else {
      postings ??= build();
      for (const [token, list] of postings) if (token.includes(piece)) for (const pos of list) mark[pos] = 1;
      if (piece !== q) for (let pos = 0; pos < n; pos++) if (mark[pos] && !contains(pos, q)) mark[pos] = 0;
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
  };
}
