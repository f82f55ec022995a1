import { comparatorFor } from '../domain/review-order.js';
import type { Review } from '../domain/review.js';
import { SORTS, type Sort } from '../domain/search-params.js';

export interface SortOrders {
  /** `hits` (ascending positions, i.e. `newest` order) in the order of `sort`; may reuse `hits`. */
  order(hits: number[], sort: Sort): number[];
}

/**
 * Each sort other than `newest` as a permutation of the positions and its inverse (the rank of each
 * position), built once per snapshot. Positions are in `newest` order, so wherever a comparator falls
 * back to compareNewest the positions compare instead: the same order without parsing timestamps
 * n log n times.
 */
export function createSortOrders(reviews: readonly Review[]): SortOrders {
  const n = reviews.length;
  const byPosition: Partial<Record<Sort, (a: number, b: number) => number>> = {
    highest: (a, b) => reviews[b]!.rating - reviews[a]!.rating || a - b,
    lowest: (a, b) => reviews[a]!.rating - reviews[b]!.rating || a - b,
  };
  const ranks = new Map<Sort, Int32Array>();
  const permutations = new Map<Sort, Int32Array>();
  for (const sort of SORTS) {
    if (sort === 'newest') continue;
    const cmp = comparatorFor(sort);
    const perm = Int32Array.from({ length: n }, (_, i) => i).sort(byPosition[sort] ?? ((a, b) => cmp(reviews[a]!, reviews[b]!)));
    const rank = new Int32Array(n);
    perm.forEach((pos, i) => (rank[pos] = i));
    permutations.set(sort, perm);
    ranks.set(sort, rank);
  }

  return {
    order(hits, sort) {
      if (sort === 'newest') return hits;
      // Few hits: sort them by rank; many: walk the whole permutation and keep the marked ones.
      if (hits.length * 16 < n) {
        const rank = ranks.get(sort)!;
        return hits.sort((a, b) => rank[a]! - rank[b]!);
      }
      const mark = new Uint8Array(n);
      for (const pos of hits) mark[pos] = 1;
      const ordered: number[] = [];
      for (const pos of permutations.get(sort)!) if (mark[pos]) ordered.push(pos);
      return ordered;
    },
  };
}
