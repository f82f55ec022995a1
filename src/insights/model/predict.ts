import type { CompiledTaxonomy } from '../analysis/compiled-taxonomy.js';
import type { Prediction, PredictedPolarity } from '../eval/absa-eval.js';
import { tokenize } from '../nlp/wink.js';
import type { AbsaModel, LearnedJudgement } from './absa-model.js';
import { buildSpan, type Span } from './features.js';

/**
 * The aspects a span holds under a model: the learned detectors decide the aspects they know; an
 * aspect of the taxonomy with no detector (a custom aspect with no training data) falls back to the
 * cue rules (issue 9, point 7).
 */
export function judgeSpan(model: AbsaModel, span: Span, compiled: CompiledTaxonomy): LearnedJudgement[] {
  const out: LearnedJudgement[] = [];
  for (const [aspect, p] of model.detect(span)) if (p >= model.thresholds.detect) out.push(model.judge(span, aspect, p));
  const modelled = new Set(model.aspects);
  for (const a of span.rules.aspects) {
    if (modelled.has(a.aspect) || !compiled.taxonomy.aspects.some((x) => x.id === a.aspect)) continue;
    out.push({ aspect: a.aspect, detection: 1, polarity: a.polarity, confidence: 1, score: Math.sign(a.score) });
  }
  return out;
}

/** A labelled line scored as one span, for eval-absa. */
export function predictWithModel(model: AbsaModel, compiled: CompiledTaxonomy, text: string): Prediction {
  const { tokens } = tokenize(text);
  const span = buildSpan(tokens, 0, tokens.length, compiled);
  const detected = new Map<string, PredictedPolarity>();
  for (const j of judgeSpan(model, span, compiled)) detected.set(j.aspect, j.polarity);
  return {
    detected,
    polarityOf: (aspect) => detected.get(aspect) ?? (model.aspects.includes(aspect) ? model.judge(span, aspect, 0).polarity : 'neutral'),
  };
}
