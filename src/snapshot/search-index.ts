import { encodeCursor } from '../domain/cursor.js';
import { comparatorFor } from '../domain/review-order.js';
import type { Review } from '../domain/review.js';
import { FILTER_KEYS, SEARCH_LIMIT_DEFAULT, SORTS, type SearchParams, type Sort } from '../domain/search-params.js';
import type { SearchQuery } from '../domain/search-query.js';
import type { Business } from '../domain/business.js';
import { createTextIndex } from './text-index.js';

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
 * over the store). Reviews are addressed by their position in the newest-first array; posting lists
 * are ascending position arrays, so they are also in `newest` order.
 */
export interface SearchIndex {
  /** Runs a validated query (domain/search-query.ts): it cannot fail. */
  search(query: SearchQuery): SearchPage;
}

function lower(s: string): string {
  return s.toLowerCase();
}

export function createSearchIndex(business: Business, reviews: readonly Review[]): SearchIndex {
  const n = reviews.length;
  const byRating: number[][] = [[], [], [], [], [], []];
  const byTechnician = new Map<string, number[]>();
  const byService = new Map<string, number[]>();
  const haystack: string[] = new Array<string>(n);
  const push = (m: Map<string, number[]>, k: string, pos: number) => {
    const list = m.get(k);
    if (list) list.push(pos);
    else m.set(k, [pos]);
  };
  reviews.forEach((r, pos) => {
    byRating[r.rating]!.push(pos);
    for (const t of r.mentions.technicians) push(byTechnician, t.id, pos);
    for (const s of r.mentions.services) push(byService, s.id, pos);
    // Title and text are checked one by one: a match must not span the two.
    haystack[pos] = lower(r.text);
  });
  const titles = reviews.map((r) => (r.title === null ? null : lower(r.title)));
  const text = createTextIndex(haystack, titles);
  // Each filter value as a bitset over positions (bit p of word p >> 5): a search ANDs 32 reviews at a
  // time over the date range instead of visiting the reviews of a posting list one by one.
  const words = (n + 31) >>> 5;
  const toBits = (list: ArrayLike<number>) => {
    const bits = new Uint32Array(words);
    for (let i = 0; i < list.length; i++) bits[list[i]! >>> 5]! |= 1 << (list[i]! & 31);
    return bits;
  };
  const ratingBits = byRating.map(toBits);
  // ratingAtLeast[k]: rating >= k, the OR of the rating sets from k up; min_rating m means rating >= ceil(m).
  const ratingAtLeast = ratingBits.map((_, k) => {
    const bits = new Uint32Array(words);
    for (const set of ratingBits.slice(k)) for (let w = 0; w < words; w++) bits[w]! |= set[w]!;
    return bits;
  });
  const technicianBits = new Map([...byTechnician].map(([id, list]) => [id, toBits(list)]));
  const serviceBits = new Map([...byService].map(([id, list]) => [id, toBits(list)]));
  const queryBits = new WeakMap<object, Uint32Array>();
  const NOTHING = new Uint32Array(words);

  // A technician is named by id, name or alias, case-insensitively (contract §4).
  const technicianKeys = new Map<string, string[]>();
  for (const t of business.technicians) {
    for (const k of new Set([t.id, t.name, ...t.aliases].map(lower))) {
      technicianKeys.set(k, [...(technicianKeys.get(k) ?? []), t.id]);
    }
  }

  // Per-sort rank of each position, for the orders other than `newest`. Positions are in `newest`
  // order, so wherever a comparator falls back to compareNewest the positions compare instead: the same
  // order without parsing timestamps n log n times.
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

  /** Positions [lo, hi) whose date is within [since, until]; dates descend along positions. */
  function dateRange(since?: string, until?: string): [number, number] {
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

  function union(lists: number[][]): number[] {
    if (lists.length === 1) return lists[0]!;
    return [...new Set(lists.flat())].sort((a, b) => a - b);
  }

  return {
    search(params) {
      const sort = params.sort ?? 'newest';
      const limit = params.limit ?? SEARCH_LIMIT_DEFAULT;
      const after = params.after;

      const [lo, hi] = dateRange(params.since, params.until);
      // Every filter is a bitset; their AND over the words of [lo, hi) gives the hits in `newest` order.
      const sets: Uint32Array[] = [];
      if (params.rating !== undefined) sets.push(ratingBits[params.rating]!);
      if (params.min_rating !== undefined && params.min_rating > 1) sets.push(ratingAtLeast[Math.ceil(params.min_rating)] ?? NOTHING);
      if (params.mentions_technician !== undefined) {
        const ids = technicianKeys.get(lower(params.mentions_technician)) ?? [];
        sets.push(
          ids.length <= 1 ? (technicianBits.get(ids[0] ?? '') ?? NOTHING) : toBits(union(ids.map((id) => byTechnician.get(id) ?? []))),
        );
      }
      if (params.mentions_service !== undefined) sets.push(serviceBits.get(params.mentions_service) ?? NOTHING);
      if (params.query !== undefined) {
        const matches = text.matches(lower(params.query));
        let bits = queryBits.get(matches);
        if (!bits) queryBits.set(matches, (bits = toBits(matches.positions)));
        sets.push(bits);
      }

      let hits: number[] = [];
      if (sets.length === 0) {
        for (let pos = lo; pos < hi; pos++) hits.push(pos);
      } else if (lo < hi) {
        const first = lo >>> 5;
        const last = (hi - 1) >>> 5;
        for (let w = first; w <= last; w++) {
          let x = 0xffffffff;
          for (const set of sets) x &= set[w]!;
          if (w === first) x &= 0xffffffff << (lo & 31);
          if (w === last && (hi & 31) !== 0) x &= 0xffffffff >>> (32 - (hi & 31));
          while (x !== 0) {
            const low = x & -x;
            hits.push((w << 5) + 31 - Math.clz32(low));
            x ^= low;
          }
        }
      }
      if (sort !== 'newest') {
        const rank = ranks.get(sort)!;
        if (hits.length * 16 < n) hits.sort((a, b) => rank[a]! - rank[b]!);
        else {
          const mark = new Uint8Array(n);
          for (const pos of hits) mark[pos] = 1;
          hits = [];
          for (const pos of permutations.get(sort)!) if (mark[pos]) hits.push(pos);
        }
      }

      // First hit strictly after the cursor's key in this order (binary search: hits are sorted).
      let start = 0;
      if (after) {
        const cmp = comparatorFor(sort);
        let a = 0;
        let b = hits.length;
        while (a < b) {
          const mid = (a + b) >>> 1;
          if (cmp(reviews[hits[mid]!]!, after) <= 0) a = mid + 1;
          else b = mid;
        }
        start = a;
      }
      const positions = hits.slice(start, start + limit);
      const last = positions.at(-1);
      const more = start + limit < hits.length;
      const filters: SearchPage['filters'] = {};
      for (const k of FILTER_KEYS) if (params[k] !== undefined) Object.assign(filters, { [k]: params[k] });
      return {
        positions,
        total: hits.length,
        limit,
        next_cursor: more && last !== undefined ? encodeCursor(sort, reviews[last]!) : null,
        filters,
      };
    },
  };
}
