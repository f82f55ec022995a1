import { analyzeText, type AnalyzedText } from '../insights/analysis/analyze-text.js';
import type { CompiledTaxonomy } from '../insights/analysis/compiled-taxonomy.js';
import type { Polarity } from '../insights/schema.js';

/** The cue rules' verdict on a labelled line, for evaluation (a line may hold several sentences). */

/**
 * Aspect polarities of a whole snippet (one labelled line may hold several wink sentences): an aspect
 * found in more than one sentence takes the sign of its summed evidence.
 * @internal exported for tests as well
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
