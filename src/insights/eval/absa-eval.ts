import { z } from 'zod';

/** One labelled line (insights.md "Measuring accuracy"). */
export const LabelledSentenceSchema = z.object({
  id: z.string(),
  text: z.string(),
  aspects: z.array(z.object({ aspect: z.string(), polarity: z.enum(['positive', 'negative', 'neutral', 'conflict']) })),
});
export type LabelledSentence = z.infer<typeof LabelledSentenceSchema>;

export type PredictedPolarity = 'positive' | 'negative' | 'neutral' | 'conflict';
export interface Prediction {
  /** Aspects the engine detects, with their polarity. */
  detected: ReadonlyMap<string, PredictedPolarity>;
  /** The polarity the engine gives an aspect when told it is there (SemEval subtask 4 setting). */
  polarityOf(aspect: string): PredictedPolarity;
}
export type Predictor = (text: string) => Prediction;

export interface AbsaScores {
  sentences: number;
  detection: { precision: number; recall: number; f1: number };
  polarity: { accuracy: number; n: number };
}

export interface AbsaError {
  id: string;
  text: string;
  missed: string[];
  spurious: string[];
  wrongPolarity: Array<{ aspect: string; gold: string; predicted: string }>;
}

/** Parses JSON Lines; throws with the line number on the first bad line. */
export function parseLabelledJsonl(content: string): LabelledSentence[] {
  const out: LabelledSentence[] = [];
  const lines = content.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const parsed = LabelledSentenceSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`line ${i + 1}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    out.push(parsed.data);
  });
  return out;
}

/**
 * Detection is micro-averaged over deduplicated (sentence, aspect) pairs. Polarity accuracy is taken
 * over the gold aspects, as given (SemEval-2014 subtask 4), so it measures polarity independently of
 * detection.
 */
export function scoreAbsa(data: readonly LabelledSentence[], predict: Predictor): { scores: AbsaScores; errors: AbsaError[] } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let polarityRight = 0;
  let polarityN = 0;
  const errors: AbsaError[] = [];
  for (const s of data) {
    const gold = new Map<string, string>();
    for (const a of s.aspects) if (!gold.has(a.aspect)) gold.set(a.aspect, a.polarity);
    const prediction = predict(s.text);
    const predicted = prediction.detected;
    const err: AbsaError = { id: s.id, text: s.text, missed: [], spurious: [], wrongPolarity: [] };
    for (const [aspect, polarity] of gold) {
      polarityN += 1;
      const detected = predicted.get(aspect);
      if (detected === undefined) {
        fn += 1;
        err.missed.push(`${aspect}:${polarity}`);
      } else tp += 1;
      const p = detected ?? prediction.polarityOf(aspect);
      if (p === polarity) polarityRight += 1;
      else err.wrongPolarity.push({ aspect, gold: polarity, predicted: p });
    }
    for (const [aspect, p] of predicted) {
      if (!gold.has(aspect)) {
        fp += 1;
        err.spurious.push(`${aspect}:${p}`);
      }
    }
    if (err.missed.length + err.spurious.length + err.wrongPolarity.length > 0) errors.push(err);
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return {
    scores: {
      sentences: data.length,
      detection: { precision, recall, f1 },
      polarity: { accuracy: polarityN === 0 ? 0 : polarityRight / polarityN, n: polarityN },
    },
    errors,
  };
}

export function formatAbsaError(e: AbsaError): string {
  const parts: string[] = [];
  if (e.missed.length) parts.push(`missed ${e.missed.join(', ')}`);
  if (e.spurious.length) parts.push(`spurious ${e.spurious.join(', ')}`);
  for (const w of e.wrongPolarity) parts.push(`${w.aspect} ${w.predicted} (gold ${w.gold})`);
  return `${e.id}\t${parts.join('; ')}\t${e.text}`;
}
