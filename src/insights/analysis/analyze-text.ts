import { tokenize, type Token } from '../nlp/wink.js';
import type { Polarity } from '../schema.js';
import type { CompiledTaxonomy } from './compiled-taxonomy.js';
import { analyzeSentence, type AspectOpinion, type SentenceOpinions } from './sentence-analyzer.js';
import type { AbsaModel } from '../model/absa-model.js';
import { buildSpan } from '../model/features.js';
import { judgeSpan } from '../model/predict.js';

export interface AnalyzedSentence {
  /** Character offsets in the analysed text: text.slice(start, end) is the sentence as written. */
  start: number;
  end: number;
  score: number;
  aspects: AspectOpinion[];
}

export interface AnalyzedText {
  tokens: Token[];
  sentences: AnalyzedSentence[];
  /** Token ranges of the sentences, parallel to `sentences`. */
  spans: Array<[number, number]>;
}

/**
 * A sentence judged by the trained model (issue 9): only confident judgements are kept, so the
 * report counts nothing the model is unsure of. The sentence's overall score follows the kept
 * judgements, and the cue rules' score only when the model found no aspect.
 */
function learnedOpinions(
  model: AbsaModel,
  tokens: readonly Token[],
  from: number,
  to: number,
  compiled: CompiledTaxonomy,
): SentenceOpinions {
  const span = buildSpan(tokens, from, to, compiled);
  const aspects: AspectOpinion[] = [];
  for (const j of judgeSpan(model, span, compiled)) {
    const confidence = j.detection * j.confidence;
    if (j.polarity === 'conflict' || confidence < model.thresholds.polarity) continue;
    aspects.push({ aspect: j.aspect, polarity: j.polarity, score: 2 * j.score, confidence });
  }
  const score = aspects.length > 0 ? aspects.reduce((sum, a) => sum + a.score, 0) : span.rules.score;
  return { aspects, score };
}

export function analyzeText(text: string, compiled: CompiledTaxonomy): AnalyzedText {
  const { tokens, sentences: spans } = tokenize(text);
  const sentences: AnalyzedSentence[] = [];
  const kept: Array<[number, number]> = [];
  for (const [from, to] of spans) {
    const first = tokens[from];
    const last = tokens[to - 1];
    if (!first || !last) continue;
    const opinions = compiled.model
      ? learnedOpinions(compiled.model, tokens, from, to, compiled)
      : analyzeSentence(tokens, from, to, compiled);
    sentences.push({ start: first.start, end: last.end, score: opinions.score, aspects: opinions.aspects });
    kept.push([from, to]);
  }
  return { tokens, sentences, spans: kept };
}

/**
 * Aspect polarities of a whole snippet (one labelled line may hold several wink sentences): an aspect
 * found in more than one sentence takes the sign of its summed evidence.
 */
export function snippetAspects(text: string, compiled: CompiledTaxonomy): Map<string, Polarity> {
  return mergeSentences(analyzeText(text, compiled), compiled);
}

function mergeSentences(analyzed: AnalyzedText, compiled: CompiledTaxonomy): Map<string, Polarity> {
  const merged = new Map<string, { score: number; polarities: Polarity[] }>();
  for (const s of analyzed.sentences) {
    for (const a of s.aspects) {
      const m = merged.get(a.aspect) ?? { score: 0, polarities: [] };
      m.score += a.score;
      m.polarities.push(a.polarity);
      merged.set(a.aspect, m);
    }
  }
  // The fallback aspect stands for "no other aspect"; in a multi-sentence snippet it yields to real ones.
  const fallback = compiled.taxonomy.fallback_aspect;
  if (fallback && merged.size > 1) merged.delete(fallback);
  const out = new Map<string, Polarity>();
  for (const [aspect, m] of merged) {
    const only = m.polarities.length === 1 ? m.polarities[0] : undefined;
    out.set(aspect, only ?? (m.score > 0.3 ? 'positive' : m.score < -0.3 ? 'negative' : (m.polarities[0] ?? 'neutral')));
  }
  return out;
}

/** Detected aspects of a snippet plus the polarity it would give any aspect it is told about. */
export function predictSnippet(
  text: string,
  compiled: CompiledTaxonomy,
): { detected: Map<string, Polarity>; polarityOf(aspect: string): Polarity } {
  const analyzed = analyzeText(text, compiled);
  const detected = mergeSentences(analyzed, compiled);
  const total = analyzed.sentences.reduce((sum, s) => sum + s.score, 0);
  const overall: Polarity = total > 0.3 ? 'positive' : total < -0.3 ? 'negative' : (compiled.taxonomy.default_polarity ?? 'neutral');
  return { detected, polarityOf: (aspect) => detected.get(aspect) ?? overall };
}
