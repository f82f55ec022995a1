import { encodeCursor, type CursorKey } from '../domain/cursor.js';
import type { Review } from '../domain/review.js';
import type { Sort } from '../domain/search-params.js';

export interface CursorPage {
  /** The page's positions, in the order of the sort. */
  positions: number[];
  next_cursor: string | null;
}

export interface CursorPaging {
  /** Up to `limit` of `hits` (in the order of `sort`) strictly after the cursor's key, and the next cursor. */
  page(hits: readonly number[], sort: Sort, after: CursorKey | undefined, limit: number): CursorPage;
  /**
   * For `newest`, whose order is the positions': the first position after the cursor's key. The
   * page is then the first `limit` hits from there, found without listing the others.
   */
  firstPositionAfter(after: CursorKey): number;
  /** The cursor naming the review at `pos` as the last of a page in `sort`. */
  cursorAt(sort: Sort, pos: number): string;
}

const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Cursor paging (contract §4): a cursor names the last review of a page by its sort key, so the next
 * page starts at the first hit after that key, found by binary search over the ordered hits. The
 * comparison is domain/review-order.ts's, with each position's updated_at parsed once, on first use,
 * and the cursor's once per request.
 */
export function createCursorPaging(reviews: readonly Review[]): CursorPaging {
  const updatedMs = new Float64Array(reviews.length).fill(Number.NaN);
  const updatedAt = (pos: number) => {
    let ms = updatedMs[pos]!;
    if (Number.isNaN(ms)) updatedMs[pos] = ms = Date.parse(reviews[pos]!.updated_at);
    return ms;
  };

  /** review-order.ts's comparator of `sort`, between the review at `pos` and the cursor's key. */
  function compareToKey(sort: Sort, after: CursorKey): (pos: number) => number {
    const afterMs = Date.parse(after.updated_at);
    const newest = (pos: number) => {
      const r = reviews[pos]!;
      return cmpStr(after.date, r.date) || afterMs - updatedAt(pos) || cmpStr(r.id, after.id);
    };
    switch (sort) {
      case 'newest':
        return newest;
      case 'oldest':
        return (pos) => cmpStr(reviews[pos]!.date, after.date) || cmpStr(reviews[pos]!.id, after.id);
      case 'highest':
        return (pos) => after.rating - reviews[pos]!.rating || newest(pos);
      case 'lowest':
        return (pos) => reviews[pos]!.rating - after.rating || newest(pos);
    }
  }

  /** The first index of `length` at which `cmp` (ascending along indexes) is above 0. */
  function firstAbove(length: number, cmp: (i: number) => number): number {
    let a = 0;
    let b = length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (cmp(mid) <= 0) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  return {
    page(hits, sort, after, limit) {
      let start = 0;
      if (after) {
        const cmp = compareToKey(sort, after);
        start = firstAbove(hits.length, (i) => cmp(hits[i]!));
      }
      const positions = hits.slice(start, start + limit);
      const last = positions.at(-1);
      const more = start + limit < hits.length;
      return { positions, next_cursor: more && last !== undefined ? encodeCursor(sort, reviews[last]!) : null };
    },
    firstPositionAfter(after) {
      return firstAbove(reviews.length, compareToKey('newest', after));
    },
    cursorAt(sort, pos) {
      return encodeCursor(sort, reviews[pos]!);
    },
  };
}
