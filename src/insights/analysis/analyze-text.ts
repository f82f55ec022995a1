import { tokenize, type Token } from '../nlp/wink.js';
import type { Polarity } from '../schema.js';
import type { CompiledTaxonomy } from './compiled-taxonomy.js';
import { analyzeSentence, type AspectOpinion, type SentenceOpinions } from './sentence-analyzer.js';
import type { AbsaModel } from '../model/absa-model.js';
import { buildSpan, withReviewContext, type Span } from '../model/features.js';
import { isReported, judgeSpan } from '../model/predict.js';

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
 * A sentence judged by the trained model: only the judgements it is confident of are kept (per
 * aspect, predict.ts), so the report counts nothing the model is unsure of. The sentence's overall
 * score follows the kept judgements, and the cue rules' score only when the model found no aspect.
 */
function learnedOpinions(model: AbsaModel, span: Span, compiled: CompiledTaxonomy): SentenceOpinions {
  const aspects: AspectOpinion[] = [];
  for (const j of judgeSpan(model, span, compiled)) {
    if (!isReported(model, j)) continue;
    aspects.push({ aspect: j.aspect, polarity: j.polarity as Polarity, score: 2 * j.score, confidence: j.detection * j.confidence });
  }
  const score = aspects.length > 0 ? aspects.reduce((sum, a) => sum + a.score, 0) : span.rules.score;
  return { aspects, score };
}

/**
 * A review's text sentence by sentence. With a model, each sentence is judged in its review's context:
 * the review's star rating and the aspects its neighbouring sentences name (model/features.ts).
 */
export function analyzeText(text: string, compiled: CompiledTaxonomy, rating?: number): AnalyzedText {
  const { tokens, sentences: ranges } = tokenize(text);
  const kept = ranges.filter(([from, to]) => tokens[from] !== undefined && tokens[to - 1] !== undefined);
  const model = compiled.model;
  const spans = model ? kept.map(([from, to]) => buildSpan(tokens, from, to, compiled)) : [];
  if (model) withReviewContext(spans, rating);
  const sentences = kept.map(([from, to], i): AnalyzedSentence => {
    const opinions = model ? learnedOpinions(model, spans[i] as Span, compiled) : analyzeSentence(tokens, from, to, compiled);
    return { start: (tokens[from] as Token).start, end: (tokens[to - 1] as Token).end, score: opinions.score, aspects: opinions.aspects };
  });
  return { tokens, sentences, spans: kept };
}
