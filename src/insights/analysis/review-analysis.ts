import type { Review } from '../../domain/review.js';
import type { Polarity } from '../schema.js';
import { analyzeText, type AnalyzedSentence } from './analyze-text.js';
import type { CompiledTaxonomy } from './compiled-taxonomy.js';
import { extractKeyPhrases } from './key-phrases.js';
import { findStaffNames, type StaffName } from './staff-names.js';

/**
 * Everything the engine learns from one review's text and rating (the model reads each sentence in its
 * review's context); independent of the catalog, so cacheable.
 */
export interface ReviewAnalysis {
  sentences: AnalyzedSentence[];
  /** One verdict per aspect for the whole review. */
  aspects: Map<string, { polarity: Polarity; score: number }>;
  /** Sum of the sentence scores: the opinion of the text as a whole. */
  score: number;
  keyPhrases: Array<{ phrase: string; sentence: number }>;
  staff: StaffName[];
}

const THRESHOLD = 0.3;

export function analyzeReview(review: Pick<Review, 'text' | 'rating'>, compiled: CompiledTaxonomy): ReviewAnalysis {
  const analyzed = analyzeText(review.text, compiled, review.rating);
  const perAspect = new Map<string, { score: number; polarities: Polarity[] }>();
  let score = 0;
  for (const s of analyzed.sentences) {
    score += s.score;
    for (const a of s.aspects) {
      const entry = perAspect.get(a.aspect) ?? { score: 0, polarities: [] };
      entry.score += a.score;
      entry.polarities.push(a.polarity);
      perAspect.set(a.aspect, entry);
    }
  }
  const aspects = new Map<string, { polarity: Polarity; score: number }>();
  for (const [aspect, e] of perAspect) {
    const same = e.polarities.every((p) => p === e.polarities[0]);
    const polarity: Polarity = same
      ? (e.polarities[0] ?? 'neutral')
      : e.score > THRESHOLD
        ? 'positive'
        : e.score < -THRESHOLD
          ? 'negative'
          : 'neutral';
    aspects.set(aspect, { polarity, score: e.score });
  }
  return {
    sentences: analyzed.sentences,
    aspects,
    score,
    keyPhrases: extractKeyPhrases(analyzed.tokens, analyzed.spans),
    staff: findStaffNames(review.text, analyzed.tokens, analyzed.spans),
  };
}
