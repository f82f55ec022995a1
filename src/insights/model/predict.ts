import type { CompiledTaxonomy } from '../analysis/compiled-taxonomy.js';
import { judgementThreshold, type AbsaModel, type LearnedJudgement } from './absa-model.js';
import type { Span } from './features.js';

/**
 * The aspects a span holds under a model: the learned detectors decide the aspects they know; an
 * aspect of the taxonomy with no detector (a custom aspect with no training data) falls back to the
 * cue rules.
 */
export function judgeSpan(model: AbsaModel, span: Span, compiled: CompiledTaxonomy): LearnedJudgement[] {
  const out: LearnedJudgement[] = [];
  for (const [aspect, p] of model.detect(span)) if (p >= model.thresholds.detect) out.push(model.judge(span, aspect, p));
  for (const a of span.rules.aspects) {
    if (model.aspects.includes(a.aspect) || !compiled.taxonomy.aspects.some((x) => x.id === a.aspect)) continue;
    out.push({ aspect: a.aspect, detection: 1, polarity: a.polarity, confidence: 1, score: Math.sign(a.score) });
  }
  return out;
}

/**
 * Whether the service counts a judgement: its probability (detection × polarity) reaches the aspect's
 * threshold. Below it the engine says nothing about that aspect in that sentence.
 */
export function isReported(model: AbsaModel, j: LearnedJudgement): boolean {
  return j.polarity !== 'conflict' && j.detection * j.confidence >= judgementThreshold(model.thresholds, j.aspect);
}
