import type { Taxonomy } from '../../src/insights/taxonomy.js';
import type { AbsaScores, LabelledSentence } from '../../src/absa-tools/absa-eval.js';
import { evaluateAbsa } from '../../src/absa-tools/evaluate.js';

export interface FoldResult {
  fold: number;
  /** The setting chosen on the other folds. */
  neutral_band: number;
  scores: AbsaScores;
}

export interface CrossValidation {
  folds: FoldResult[];
  mean: { f1: number; polarity: number };
  /** Largest distance of a fold from the mean: a small spread says the rules are not fitted to a few sentences. */
  spread: { f1: number; polarity: number };
}

/** Objective for choosing a setting: detection F1 and polarity accuracy weigh the same. */
function objective(s: AbsaScores): number {
  return s.detection.f1 + s.polarity.accuracy;
}

/**
 * k-fold cross-validation of the one data-driven setting of the engine, the neutral band: for each
 * fold it is chosen on the other k-1 folds, then the held-out fold is scored. The cues themselves are
 * written by hand from domain knowledge; this checks that the tuned setting and the rules generalise.
 * Folds are by position (i mod k), so the split is deterministic.
 */
export function crossValidateAbsa(
  data: readonly LabelledSentence[],
  taxonomy: Taxonomy,
  k = 5,
  grid: readonly number[] = [0.3, 0.75, 1.25],
): CrossValidation {
  const folds: FoldResult[] = [];
  for (let fold = 0; fold < k; fold++) {
    const train = data.filter((_, i) => i % k !== fold);
    const held = data.filter((_, i) => i % k === fold);
    let best = grid[0] ?? 0.3;
    let bestScore = -Infinity;
    for (const band of grid) {
      const score = objective(evaluateAbsa(train, { ...taxonomy, neutral_band: band }).scores);
      if (score > bestScore) {
        bestScore = score;
        best = band;
      }
    }
    folds.push({ fold, neutral_band: best, scores: evaluateAbsa(held, { ...taxonomy, neutral_band: best }).scores });
  }
  const mean = {
    f1: folds.reduce((s, f) => s + f.scores.detection.f1, 0) / k,
    polarity: folds.reduce((s, f) => s + f.scores.polarity.accuracy, 0) / k,
  };
  const spread = {
    f1: Math.max(...folds.map((f) => Math.abs(f.scores.detection.f1 - mean.f1))),
    polarity: Math.max(...folds.map((f) => Math.abs(f.scores.polarity.accuracy - mean.polarity))),
  };
  return { folds, mean, spread };
}
