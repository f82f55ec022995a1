import type { Sort } from './search-params.js';

export interface SortKey {
  id: string;
  date: string;
  rating: number;
  updated_at: string;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Timestamps compare as instants: "…T17:00:00Z" and "…T17:00:00.000Z" are the same moment. */
function cmpTime(a: string, b: string): number {
  return Date.parse(a) - Date.parse(b);
}

/** Contract §4, `newest`: date descending, then updated_at descending, then id ascending. */
export function compareNewest(a: SortKey, b: SortKey): number {
  return cmpStr(b.date, a.date) || cmpTime(b.updated_at, a.updated_at) || cmpStr(a.id, b.id);
}

/**
 * The total order of each sort (contract §4); every order ends on the unique id, so it is strict.
 * @internal exported for tests as well
 */
export function comparatorFor(sort: Sort): (a: SortKey, b: SortKey) => number {
  switch (sort) {
    case 'newest':
      return compareNewest;
    case 'oldest':
      return (a, b) => cmpStr(a.date, b.date) || cmpStr(a.id, b.id);
    case 'highest':
      return (a, b) => b.rating - a.rating || compareNewest(a, b);
    case 'lowest':
      return (a, b) => a.rating - b.rating || compareNewest(a, b);
  }
}
