import type { Business } from '../domain/business.js';
import type { Review } from '../domain/review.js';
import type { SearchParams } from '../domain/search-params.js';
import { toBitset, unionOf, wordsFor, type Bitset } from './bitset.js';
import { createTextIndex } from './text-index.js';
import type { TimeSlicer } from './time-slice.js';

/** The filters of a search (contract §4) that select positions regardless of the date range. */
export type SetFilters = Pick<SearchParams, 'rating' | 'min_rating' | 'mentions_technician' | 'mentions_service' | 'query'>;

export interface FilterSets {
  /** One bitset per filter given; a search hits the positions in all of them. */
  setsFor(params: SetFilters): Bitset[];
  /** Builds the `query` index ahead of the first query, in time slices. */
  warm(slicer: TimeSlicer): Promise<void>;
}

function lower(s: string): string {
  return s.toLowerCase();
}

/** Ascending posting lists of positions per key. */
function* postingLists(reviews: readonly Review[], keysOf: (r: Review) => Iterable<string>): Generator<void, Map<string, number[]>> {
  const lists = new Map<string, number[]>();
  for (let pos = 0; pos < reviews.length; pos++) {
    for (const k of keysOf(reviews[pos]!)) {
      const list = lists.get(k);
      if (list) list.push(pos);
      else lists.set(k, [pos]);
    }
    if ((pos & 4095) === 4095) yield;
  }
  return lists;
}

/**
 * Each filter value as a bitset over positions, built once per snapshot: the rating sets, "rating at
 * least k", each technician key (id, name or alias, case-insensitive) and each service id; the `query`
 * sets come from the text index, one per distinct answer, on first use.
 */
export function* filterSetSteps(business: Business, reviews: readonly Review[]): Generator<void, FilterSets> {
  const words = wordsFor(reviews.length);
  const NOTHING = new Uint32Array(words);
  const bitsOf = (lists: Map<string, number[]>) => new Map([...lists].map(([k, list]) => [k, toBitset(list, words)]));

  const byRating = bitsOf(yield* postingLists(reviews, (r) => [String(r.rating)]));
  const rating = [0, 1, 2, 3, 4, 5].map((k) => byRating.get(String(k)) ?? NOTHING);
  // ratingAtLeast[k]: rating >= k, the OR of the rating sets from k up; min_rating m means rating >= ceil(m).
  const ratingAtLeast = rating.map((_, k) => unionOf(rating.slice(k), words));
  yield;
  const service = bitsOf(yield* postingLists(reviews, (r) => r.mentions.services.map((s) => s.id)));
  yield;

  // A technician is named by id, name or alias, case-insensitively (contract §4); a key several
  // technicians share selects the reviews of any of them.
  const technicianById = bitsOf(yield* postingLists(reviews, (r) => r.mentions.technicians.map((t) => t.id)));
  yield;
  const idsByKey = new Map<string, string[]>();
  for (const t of business.technicians)
    for (const k of new Set([t.id, t.name, ...t.aliases].map(lower))) idsByKey.set(k, [...(idsByKey.get(k) ?? []), t.id]);
  const technician = new Map(
    [...idsByKey].map(([k, ids]) => {
      const sets = ids.map((id) => technicianById.get(id) ?? NOTHING);
      return [k, sets.length === 1 ? sets[0]! : unionOf(sets, words)];
    }),
  );

  // Title and text are checked one by one: a match must not span the two.
  const text = createTextIndex(
    reviews.length,
    (pos) => reviews[pos]!.text,
    (pos) => reviews[pos]!.title,
  );
  const queryBits = new WeakMap<object, Bitset>();
  const querySet = (query: string) => {
    const matches = text.matches(lower(query));
    let bits = queryBits.get(matches);
    if (!bits) queryBits.set(matches, (bits = toBitset(matches.positions, words)));
    return bits;
  };

  return {
    setsFor(p) {
      const sets: Bitset[] = [];
      if (p.rating !== undefined) sets.push(rating[p.rating] ?? NOTHING);
      if (p.min_rating !== undefined && p.min_rating > 1) sets.push(ratingAtLeast[Math.ceil(p.min_rating)] ?? NOTHING);
      if (p.mentions_technician !== undefined) sets.push(technician.get(lower(p.mentions_technician)) ?? NOTHING);
      if (p.mentions_service !== undefined) sets.push(service.get(p.mentions_service) ?? NOTHING);
      if (p.query !== undefined) sets.push(querySet(p.query));
      return sets;
    },
    warm: (slicer) => text.warm(slicer),
  };
}
