import type { Polarity } from '../schema.js';
import type { ReviewAnalysis } from './review-analysis.js';

/**
 * A review's analysis as text, to keep across restarts (the insights worker exits when idle
 * and a new one reads the analyses back instead of redoing them). Plain JSON but for the aspects map,
 * written as entries. Only this engine's own output is read back, under a key that covers the engine's
 * code (insights-input.ts `analysisKey`), so the text is trusted, not validated.
 */
export function serializeAnalysis(analysis: ReviewAnalysis): string {
  return JSON.stringify({ ...analysis, aspects: [...analysis.aspects] });
}

export function parseAnalysis(text: string): ReviewAnalysis {
  const stored = JSON.parse(text) as Omit<ReviewAnalysis, 'aspects'> & { aspects: Array<[string, { polarity: Polarity; score: number }]> };
  return { ...stored, aspects: new Map(stored.aspects) };
}
