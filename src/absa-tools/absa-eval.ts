import { z } from 'zod';

/**
 * One labelled line (insights.md "Measuring accuracy"). `review` and `rating` are optional: the review
 * the sentence comes from (the lines of one review in a row, in order) and that review's stars, the
 * context the engine has in production.
 */
export const LabelledSentenceSchema = z.object({
  id: z.string(),
  text: z.string(),
  aspects: z.array(z.object({ aspect: z.string(), polarity: z.enum(['positive', 'negative', 'neutral', 'conflict']) })),
  review: z.string().optional(),
  rating: z.number().min(1).max(5).optional(),
});
export type LabelledSentence = z.infer<typeof LabelledSentenceSchema>;

export type PredictedPolarity = 'positive' | 'negative' | 'neutral' | 'conflict';
export interface Prediction {
  /** Aspects the engine detects, with their polarity. */
  detected: ReadonlyMap<string, PredictedPolarity>;
  /** The polarity the engine gives an aspect when told it is there (SemEval subtask 4 setting). */
  polarityOf(aspect: string): PredictedPolarity;
  /**
   * The judgements the service counts (the confident ones: below its threshold the engine says
   * nothing); absent when every detected judgement counts (the cue rules).
   */
  reported?: ReadonlyMap<string, PredictedPolarity>;
}

/** Per aspect: labelled against reported judgements, and the share of each that is positive. */
export interface AspectShare {
  labelled: number;
  labelled_positive_share: number;
  reported: number;
  reported_positive_share: number;
}

export interface AbsaScores {
  sentences: number;
  detection: { precision: number; recall: number; f1: number };
  polarity: { accuracy: number; n: number };
  /**
   * What the service counts: its judgements, the share right (aspect and polarity both), the share of
   * gold judgements it reports rightly, and per aspect the positive share it reports against the labels'.
   */
  reported: { judgements: number; right: number; coverage: number; aspects: Record<string, AspectShare> };
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

function ratio(a: number, b: number): number {
  return b === 0 ? 0 : a / b;
}

/** Per-aspect positive shares of the labels and of the reported judgements. */
function shares(
  data: readonly LabelledSentence[],
  predictions: readonly Prediction[],
): { judgements: number; right: number; rightCount: number; aspects: Record<string, AspectShare> } {
  const counts = new Map<string, { labelled: number; labelledPositive: number; reported: number; reportedPositive: number }>();
  const entry = (aspect: string) => {
    let c = counts.get(aspect);
    if (!c) counts.set(aspect, (c = { labelled: 0, labelledPositive: 0, reported: 0, reportedPositive: 0 }));
    return c;
  };
  let judgements = 0;
  let rightCount = 0;
  data.forEach((s, i) => {
    const gold = goldOf(s);
    for (const [aspect, polarity] of gold) {
      const c = entry(aspect);
      c.labelled += 1;
      if (polarity === 'positive') c.labelledPositive += 1;
    }
    const p = predictions[i] as Prediction;
    for (const [aspect, polarity] of p.reported ?? p.detected) {
      const c = entry(aspect);
      c.reported += 1;
      if (polarity === 'positive') c.reportedPositive += 1;
      judgements += 1;
      if (gold.get(aspect) === polarity) rightCount += 1;
    }
  });
  const aspects: Record<string, AspectShare> = {};
  for (const [aspect, c] of [...counts].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    aspects[aspect] = {
      labelled: c.labelled,
      labelled_positive_share: ratio(c.labelledPositive, c.labelled),
      reported: c.reported,
      reported_positive_share: ratio(c.reportedPositive, c.reported),
    };
  }
  return { judgements, right: ratio(rightCount, judgements), rightCount, aspects };
}

function goldOf(s: LabelledSentence): Map<string, string> {
  const gold = new Map<string, string>();
  for (const a of s.aspects) if (!gold.has(a.aspect)) gold.set(a.aspect, a.polarity);
  return gold;
}

/**
 * Detection is micro-averaged over deduplicated (sentence, aspect) pairs. Polarity accuracy is taken
 * over the gold aspects, as given (SemEval-2014 subtask 4), so it measures polarity independently of
 * detection. `predictions` are parallel to `data`.
 */
export function scoreAbsa(
  data: readonly LabelledSentence[],
  predictions: readonly Prediction[],
): { scores: AbsaScores; errors: AbsaError[] } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let polarityRight = 0;
  let polarityN = 0;
  const errors: AbsaError[] = [];
  data.forEach((s, n) => {
    const gold = goldOf(s);
    const prediction = predictions[n] as Prediction;
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
  });
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const reported = shares(data, predictions);
  return {
    scores: {
      sentences: data.length,
      detection: { precision, recall, f1 },
      polarity: { accuracy: ratio(polarityRight, polarityN), n: polarityN },
      reported: {
        judgements: reported.judgements,
        right: reported.right,
        coverage: ratio(reported.rightCount, polarityN),
        aspects: reported.aspects,
      },
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
