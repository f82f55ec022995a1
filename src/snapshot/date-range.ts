import type { Review } from '../domain/review.js';

/**
 * Positions [lo, hi) whose date is within [since, until]. Positions are in `newest` order, so dates
 * descend along them and each bound is one binary search.
 */
export function dateRange(reviews: readonly Pick<Review, 'date'>[], since?: string, until?: string): [number, number] {
  const n = reviews.length;
  const firstWhere = (pred: (pos: number) => boolean) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pred(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const start = until === undefined ? 0 : firstWhere((p) => reviews[p]!.date <= until);
  const end = since === undefined ? n : firstWhere((p) => reviews[p]!.date < since);
  return [start, Math.max(start, end)];
}
