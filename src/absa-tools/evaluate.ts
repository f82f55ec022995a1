import { compileTaxonomy, type CompiledTaxonomy } from '../insights/analysis/compiled-taxonomy.js';
import type { AbsaModel } from '../insights/model/absa-model.js';
import type { Span } from '../insights/model/features.js';
import { isReported, judgeSpan } from '../insights/model/predict.js';
import type { Taxonomy } from '../insights/taxonomy.js';
import {
  parseLabelledJsonl,
  scoreAbsa,
  type AbsaError,
  type AbsaScores,
  type LabelledSentence,
  type PredictedPolarity,
  type Prediction,
} from './absa-eval.js';
import { predictSnippet } from './snippet.js';
import { spansOf } from './train.js';

/**
 * A labelled line as the model judges it: the line is one span, in its review's context (rating and
 * neighbouring lines) when the line carries them. `detected` is every detection (eval measures the
 * model); `reported` the judgements the service counts.
 */
export function predictWithModel(model: AbsaModel, compiled: CompiledTaxonomy, span: Span): Prediction {
  const detected = new Map<string, PredictedPolarity>();
  const reported = new Map<string, PredictedPolarity>();
  for (const j of judgeSpan(model, span, compiled)) {
    detected.set(j.aspect, j.polarity);
    if (isReported(model, j)) reported.set(j.aspect, j.polarity);
  }
  return {
    detected,
    reported,
    polarityOf: (aspect) => detected.get(aspect) ?? (model.aspects.includes(aspect) ? model.judge(span, aspect, 0).polarity : 'neutral'),
  };
}

/** Predictions for labelled lines, parallel to them. */
export function predictAll(data: readonly LabelledSentence[], compiled: CompiledTaxonomy, model?: AbsaModel): Prediction[] {
  if (!model) return data.map((s) => predictSnippet(s.text, compiled));
  const spans = spansOf(data, compiled);
  return spans.map((span) => predictWithModel(model, compiled, span));
}

/**
 * Scores the engine's sentence analysis on labelled data (insights.md "Measuring accuracy"): with a
 * trained model, the model decides (every detection, confident or not, since eval measures the model;
 * `reported` gives what the service counts); without one, the cue rules.
 */
export function evaluateAbsa(
  data: readonly LabelledSentence[],
  taxonomy: Taxonomy,
  model?: AbsaModel,
): { scores: AbsaScores; errors: AbsaError[] } {
  const compiled = compileTaxonomy(taxonomy, model);
  return scoreAbsa(data, predictAll(data, compiled, model));
}

export function evaluateAbsaJsonl(content: string, taxonomy: Taxonomy, model?: AbsaModel): { scores: AbsaScores; errors: AbsaError[] } {
  return evaluateAbsa(parseLabelledJsonl(content), taxonomy, model);
}
