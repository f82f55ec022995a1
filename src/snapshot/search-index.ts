import type { Business } from '../domain/business.js';
import type { Review } from '../domain/review.js';
import { FILTER_KEYS, SEARCH_LIMIT_DEFAULT, type SearchParams } from '../domain/search-params.js';
import type { SearchQuery } from '../domain/search-query.js';
import { countInAll, positionsInAll } from './bitset.js';
import { createCursorPaging } from './cursor-page.js';
import { dateRange } from './date-range.js';
import { filterSetSteps } from './filter-sets.js';
import { createSortOrders } from './sort-orders.js';
import { runSync, type TimeSlicer } from './time-slice.js';

export interface SearchPage {
  /** Positions into the newest-first review array, in the requested order. */
  positions: number[];
  total: number;
  limit: number;
  next_cursor: string | null;
  filters: Partial<Pick<SearchParams, (typeof FILTER_KEYS)[number]>>;
}

/**
 * In-memory indexes over one snapshot's published reviews (style.md: search runs over indexes, never
 * over the store). Reviews are addressed by their position in the newest-first array.
 */
export interface SearchIndex {
  /** Runs a validated query (domain/search-query.ts): it cannot fail. */
  search(query: SearchQuery): SearchPage;
  /** Builds what the first search would otherwise build on the request path, in time slices. */
  warm(slicer: TimeSlicer): Promise<void>;
}

/** The filters a search applied, in FILTER_KEYS order, for its response to echo. */
export function appliedFilters(params: SearchParams): SearchPage['filters'] {
  const filters: Record<string, unknown> = {};
  for (const k of FILTER_KEYS) if (params[k] !== undefined) filters[k] = params[k];
  return filters as SearchPage['filters'];
}

/**
 * A search is: the date range's positions, ANDed with each filter's bitset (hits in `newest` order),
 * put in the requested order, then the page after the cursor.
 * @internal exported for tests as well
 */
export function createSearchIndex(business: Business, reviews: readonly Review[]): SearchIndex {
  return runSync(searchIndexSteps(business, reviews));
}

/** `createSearchIndex` as steps between which the caller may yield to the event loop, so requests are not stalled. */
export function* searchIndexSteps(business: Business, reviews: readonly Review[]): Generator<void, SearchIndex> {
  const filterSets = yield* filterSetSteps(business, reviews);
  yield;
  const orders = createSortOrders(reviews);
  const paging = createCursorPaging(reviews);
  return {
    warm: (slicer) => filterSets.warm(slicer),
    search(params) {
      const sort = params.sort ?? 'newest';
      const limit = params.limit ?? SEARCH_LIMIT_DEFAULT;
      const [lo, hi] = dateRange(reviews, params.since, params.until);
      const sets = filterSets.setsFor(params);
      if (sort === 'newest') {
        // The positions' own order: count the hits and list only the page's (and one more, to know
        // whether a next page exists), however many thousands match.
        const from = params.after ? Math.max(lo, paging.firstPositionAfter(params.after)) : lo;
        const listed = positionsInAll(sets, from, hi, limit + 1);
        const positions = listed.length > limit ? listed.slice(0, limit) : listed;
        const next_cursor = listed.length > limit ? paging.cursorAt(sort, positions.at(-1)!) : null;
        return { positions, total: countInAll(sets, lo, hi), limit, next_cursor, filters: appliedFilters(params) };
      }
      const hits = orders.order(positionsInAll(sets, lo, hi), sort);
      const { positions, next_cursor } = paging.page(hits, sort, params.after, limit);
      return { positions, total: hits.length, limit, next_cursor, filters: appliedFilters(params) };
    },
  };
}
