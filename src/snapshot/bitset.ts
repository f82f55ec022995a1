/**
 * Sets of positions as bitsets (bit p in word p >> 5): a search ANDs 32 reviews at a time instead of
 * visiting the reviews of a posting list one by one.
 */
export type Bitset = Uint32Array;

export function wordsFor(n: number): number {
  return (n + 31) >>> 5;
}

/** The bitset of `positions` over `words` words. */
export function toBitset(positions: ArrayLike<number>, words: number): Bitset {
  const bits = new Uint32Array(words);
  for (let i = 0; i < positions.length; i++) bits[positions[i]! >>> 5]! |= 1 << (positions[i]! & 31);
  return bits;
}

/** The union of some bitsets of the same size. */
export function unionOf(sets: readonly Bitset[], words: number): Bitset {
  const bits = new Uint32Array(words);
  for (const set of sets) for (let w = 0; w < words; w++) bits[w]! |= set[w]!;
  return bits;
}

/** The word `w` of the AND of `sets`, keeping only the bits of positions in [lo, hi). */
function wordInAll(sets: readonly Bitset[], w: number, lo: number, hi: number): number {
  let x = 0xffffffff;
  for (let s = 0; s < sets.length; s++) x &= sets[s]![w]!;
  if (w === lo >>> 5) x &= 0xffffffff << (lo & 31);
  if (w === (hi - 1) >>> 5 && (hi & 31) !== 0) x &= 0xffffffff >>> (32 - (hi & 31));
  return x;
}

// Bits set in each 16-bit value: two lookups count a word in about half the time of the arithmetic
// popcount, which matters as a search counts its hits over the whole date range.
const BITS16 = new Uint8Array(1 << 16);
for (let i = 1; i < BITS16.length; i++) BITS16[i] = (i & 1) + BITS16[i >>> 1]!;

function popcount(x: number): number {
  return BITS16[x & 0xffff]! + BITS16[x >>> 16]!;
}

/**
 * Ascending positions in [lo, hi) that are in every set (every position of the range when there is
 * none), at most `max` of them.
 */
export function positionsInAll(sets: readonly Bitset[], lo: number, hi: number, max = Infinity): number[] {
  const hits: number[] = [];
  if (sets.length === 0) {
    for (let pos = lo; pos < hi && hits.length < max; pos++) hits.push(pos);
    return hits;
  }
  if (lo >= hi) return hits;
  for (let w = lo >>> 5, last = (hi - 1) >>> 5; w <= last; w++) {
    let x = wordInAll(sets, w, lo, hi);
    while (x !== 0) {
      if (hits.length >= max) return hits;
      const low = x & -x;
      hits.push((w << 5) + 31 - Math.clz32(low));
      x ^= low;
    }
  }
  return hits;
}

/** How many positions in [lo, hi) are in every set, without listing them. */
export function countInAll(sets: readonly Bitset[], lo: number, hi: number): number {
  if (lo >= hi) return 0;
  if (sets.length === 0) return hi - lo;
  const first = lo >>> 5;
  const last = (hi - 1) >>> 5;
  if (first === last) return popcount(wordInAll(sets, first, lo, hi));
  return popcount(wordInAll(sets, first, lo, hi)) + countWords(sets, first + 1, last) + popcount(wordInAll(sets, last, lo, hi));
}

/**
 * How many bits words [from, to) of the AND of `sets` hold: every search counts its hits over the whole
 * date range (a few thousand words at 100k reviews), so the common numbers of filters get a loop each.
 */
function countWords(sets: readonly Bitset[], from: number, to: number): number {
  let count = 0;
  const a = sets[0]!;
  const b = sets[1] ?? a;
  const c = sets[2] ?? b;
  if (sets.length <= 3) {
    for (let w = from; w < to; w++) count += popcount(a[w]! & b[w]! & c[w]!);
    return count;
  }
  for (let w = from; w < to; w++) {
    let x = a[w]!;
    for (let s = 1; s < sets.length; s++) x &= sets[s]![w]!;
    count += popcount(x);
  }
  return count;
}
