import type { Review } from '../../domain/review.js';
import type { ReviewAnalysis } from '../analysis/review-analysis.js';
import type { Polarity } from '../schema.js';
import type { Taxonomy } from '../taxonomy.js';

/** What every section builder reads: published reviews (newest first) with their analyses. */
export interface ReportContext {
  taxonomy: Taxonomy;
  items: ReadonlyArray<{ review: Review; analysis: ReviewAnalysis }>;
}

/** Fewer reviews than this behind a claim and the document says there is not enough data yet. */
export const MIN_EVIDENCE = 3;

export interface Counts {
  mentions: number;
  positive: number;
  neutral: number;
  negative: number;
  score: number;
}

export function emptyCounts(): Counts {
  return { mentions: 0, positive: 0, neutral: 0, negative: 0, score: 0 };
}

export function addPolarity(c: Counts, p: Polarity): void {
  c.mentions += 1;
  c[p] += 1;
  c.score = round((c.positive - c.negative) / c.mentions);
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function polarityOf(score: number): Polarity {
  return score > 0.3 ? 'positive' : score < -0.3 ? 'negative' : 'neutral';
}

/** A review's overall verdict: its text when the text has an opinion, else its stars. */
export function reviewPolarity(review: Review, analysis: ReviewAnalysis): Polarity {
  const fromText = polarityOf(analysis.score);
  if (fromText !== 'neutral') return fromText;
  return review.rating >= 4 ? 'positive' : review.rating <= 2 ? 'negative' : 'neutral';
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "a", "a and b", "a, b and c". */
export function listing(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${Math.round((100 * part) / whole)}%`;
}

/**
 * Ties broken by UTF-16 code units, never by locale: replicas with different ICU locales must render
 * the same bytes (one ETag per snapshot).
 */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
