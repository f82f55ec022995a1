import { compileTaxonomy } from '../analysis/compiled-taxonomy.js';
import { predictSnippet } from '../analysis/analyze-text.js';
import type { Taxonomy } from '../taxonomy.js';
import { parseLabelledJsonl, scoreAbsa, type AbsaError, type AbsaScores, type LabelledSentence } from './absa-eval.js';

/** Runs the engine's sentence analysis over labelled data and scores it (insights.md "Measuring accuracy"). */
export function evaluateAbsa(data: readonly LabelledSentence[], taxonomy: Taxonomy): { scores: AbsaScores; errors: AbsaError[] } {
  const compiled = compileTaxonomy(taxonomy);
  return scoreAbsa(data, (text) => predictSnippet(text, compiled));
}

export function evaluateAbsaJsonl(content: string, taxonomy: Taxonomy): { scores: AbsaScores; errors: AbsaError[] } {
  return evaluateAbsa(parseLabelledJsonl(content), taxonomy);
}
