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

/** Ascending positions in [lo, hi) that are in every set (every position of the range when there is none). */
export function positionsInAll(sets: readonly Bitset[], lo: number, hi: number): number[] {
  const hits: number[] = [];
  if (sets.length === 0) {
    for (let pos = lo; pos < hi; pos++) hits.push(pos);
    return hits;
  }
  if (lo >= hi) return hits;
  const first = lo >>> 5;
  const last = (hi - 1) >>> 5;
  for (let w = first; w <= last; w++) {
    let x = 0xffffffff;
    for (let s = 0; s < sets.length; s++) x &= sets[s]![w]!;
    if (w === first) x &= 0xffffffff << (lo & 31);
    if (w === last && (hi & 31) !== 0) x &= 0xffffffff >>> (32 - (hi & 31));
    while (x !== 0) {
      const low = x & -x;
      hits.push((w << 5) + 31 - Math.clz32(low));
      x ^= low;
    }
  }
  return hits;
}
