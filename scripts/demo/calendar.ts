import type { Rng } from './prng.js';

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date (UTC: the dates are calendar days, not instants). */
export function toDay(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS;
}

export function fromDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Busier in the heating and cooling peaks, as an HVAC company's phone is (January = index 0). */
const MONTH_WEIGHTS = [1.2, 1.0, 0.8, 0.8, 0.9, 1.2, 1.4, 1.3, 0.9, 0.8, 0.9, 1.1];

/**
 * `count` dates between `first` and `last` (inclusive), weighted by season; about `clusterRate` of them
 * repeat the previous date, as happens when a batch of review requests goes out the same day.
 */
export function sampleDates(rng: Rng, first: string, last: string, count: number, clusterRate: number): string[] {
  const days: number[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (let d = toDay(first); d <= toDay(last); d++) {
    total += MONTH_WEIGHTS[new Date(d * DAY_MS).getUTCMonth()] ?? 1;
    days.push(d);
    cumulative.push(total);
  }
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const previous = out[out.length - 1];
    if (previous !== undefined && rng.chance(clusterRate)) {
      out.push(previous);
      continue;
    }
    const r = rng.next() * total;
    const index = cumulative.findIndex((c) => c > r);
    out.push(fromDay(days[index] ?? days[days.length - 1] ?? toDay(first)));
  }
  return out;
}
