import type { StoredReview } from '../../src/domain/review.js';
import { fixtureBusiness, fixtureReviews, type FixtureOptions } from '../support/fixture.js';

/**
 * The test's own reading of the contract, written from its text rather than from the code under
 * test: which fixture reviews are published, how each sort orders them, what a mention is.
 */

export function publishedReviews(options: FixtureOptions = {}): StoredReview[] {
  return fixtureReviews(options).filter((r) => r.verified && !r.hidden);
}

type Key = Pick<StoredReview, 'id' | 'date' | 'rating' | 'updated_at'>;
const str = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const newest = (a: Key, b: Key) => str(b.date, a.date) || Date.parse(b.updated_at) - Date.parse(a.updated_at) || str(a.id, b.id);

/** Contract §4 orders. */
export const ORDERS = {
  newest,
  oldest: (a: Key, b: Key) => str(a.date, b.date) || str(a.id, b.id),
  highest: (a: Key, b: Key) => b.rating - a.rating || newest(a, b),
  lowest: (a: Key, b: Key) => a.rating - b.rating || newest(a, b),
} as const;
export type SortName = keyof typeof ORDERS;

export function ordered(reviews: StoredReview[], sort: SortName = 'newest'): string[] {
  return [...reviews].sort(ORDERS[sort]).map((r) => r.id);
}

/** Whole word or phrase, case-insensitive, Unicode letters and digits as word characters (contract §2). */
export function namesPhrase(r: Pick<StoredReview, 'title' | 'text'>, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_])${escaped}(?![\\p{L}\\p{N}\\p{M}_])`, 'iu');
  return re.test(r.title ?? '') || re.test(r.text);
}

export function mentionsTechnician(r: StoredReview, technicianId: string): boolean {
  const t = fixtureBusiness().technicians.find((x) => x.id === technicianId);
  if (!t) return false;
  return r.mention_tags.technicians.includes(t.id) || [t.name, ...t.aliases].some((n) => namesPhrase(r, n));
}

export function mentionsService(r: StoredReview, serviceId: string): boolean {
  const s = fixtureBusiness().services.find((x) => x.id === serviceId);
  if (!s) return false;
  return r.mention_tags.services.includes(s.id) || [s.name, ...s.aliases].some((n) => namesPhrase(r, n));
}

export function newestUpdatedAt(reviews: StoredReview[]): number {
  return Math.max(...reviews.map((r) => Date.parse(r.updated_at)));
}
