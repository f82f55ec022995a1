import { compileTaxonomy } from '../analysis/compiled-taxonomy.js';
import { predictSnippet } from '../analysis/analyze-text.js';
import type { AbsaModel } from '../model/absa-model.js';
import { predictWithModel } from '../model/predict.js';
import type { Taxonomy } from '../taxonomy.js';
import { parseLabelledJsonl, scoreAbsa, type AbsaError, type AbsaScores, type LabelledSentence } from './absa-eval.js';

/**
 * Scores the engine's sentence analysis on labelled data (insights.md "Measuring accuracy"): with a
 * trained model, the model decides (every judgement, confident or not, since eval measures the
 * model); without one, the cue rules.
 */
export function evaluateAbsa(
  data: readonly LabelledSentence[],
  taxonomy: Taxonomy,
  model?: AbsaModel,
): { scores: AbsaScores; errors: AbsaError[] } {
  const compiled = compileTaxonomy(taxonomy, model);
  return scoreAbsa(data, (text) => (model ? predictWithModel(model, compiled, text) : predictSnippet(text, compiled)));
}

export function evaluateAbsaJsonl(content: string, taxonomy: Taxonomy, model?: AbsaModel): { scores: AbsaScores; errors: AbsaError[] } {
  return evaluateAbsa(parseLabelledJsonl(content), taxonomy, model);
}
