import { z } from 'zod';
import type { CompiledTaxonomy } from '../insights/analysis/compiled-taxonomy.js';
import { modelFromParts } from '../insights/model/absa-model.js';
import { loadEmbeddingTable, type EmbeddingTableData } from '../insights/model/embeddings.js';
import type { LabelledSentence } from './absa-eval.js';
import { segmentsOf } from '../insights/model/features.js';
import { detectionNamed, spansOf, thresholdsOf, trainParts } from './train.js';

/**
 * Per-aspect judgement thresholds, chosen by cross-validation on the training corpus: what the report
 * counts of an aspect should be right this often on text like real reviews. Written by
 * `train-absa --calibrate FILE`, read by `train-absa --calibration FILE` into the model.
 */
export const CalibrationSchema = z.object({
  /** The share of counted judgements (aspect and polarity) that should be right. */
  target: z.number(),
  /**
   * The factor a clause read on its own counts at (model `thresholds.segment`), the one of the grid
   * with the best detection F1 on the held-out folds; null: clauses are not read on their own.
   */
  segment: z.number().nullable(),
  /** Detection F1 on the held-out folds for each factor tried ("none": the sentence alone). */
  segmentF1: z.record(z.string(), z.number()),
  /** The held-out files: written as whole reviews (lines with `review`), each held out in turn. */
  folds: z.array(z.string()),
  aspects: z.record(
    z.string(),
    z.object({
      /** The judgement threshold: detection × polarity probability at or above it is counted. */
      threshold: z.number(),
      /** On the held-out folds at that threshold: judgements counted, the share right, gold judgements. */
      counted: z.number().int(),
      right: z.number(),
      gold: z.number().int(),
      /** The share of positive judgements among those counted, and among the gold ones: the report's bias. */
      counted_positive: z.number(),
      gold_positive: z.number(),
    }),
  ),
});
export type Calibration = z.infer<typeof CalibrationSchema>;

export const CALIBRATION_TARGET = 0.85;
/** Thresholds tried, from the model's default up. */
const GRID = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];
/** Below this many counted judgements on the held-out folds, a share right says too little to move the threshold. */
const MIN_COUNTED = 30;

/** One (sentence, aspect) of a held-out file. */
interface Judged {
  aspect: string;
  /** Detection probability of the sentence alone, and the highest of its clauses read on their own. */
  sentence: number;
  clause: number;
  /** Polarity probability and whether the polarity is right (false when the sentence does not evaluate the aspect). */
  confidence: number;
  right: boolean;
  gold: boolean;
  positive: boolean;
  goldPositive: boolean;
}

const round = (v: number): number => Number(v.toFixed(4));

/** Clause factors tried; null reads the sentence alone. */
const SEGMENT_GRID: Array<number | null> = [null, 0.7, 0.8, 0.9, 1];

const detection = (j: Judged, segment: number | null): number => (segment === null ? j.sentence : Math.max(j.sentence, segment * j.clause));

export interface CalibrationInput {
  /** The corpus by file, in training order. */
  files: ReadonlyArray<{ name: string; data: readonly LabelledSentence[] }>;
  compiled: CompiledTaxonomy;
  seed: number;
  embeddings?: EmbeddingTableData | undefined;
}

/** Judgements of one held-out file by a model trained on all the other files. */
function heldOut(input: CalibrationInput, held: number, prepared: Prepared): Judged[] {
  const others = input.files.map((_, i) => i).filter((i) => i !== held);
  const { parts } = trainParts(
    others.flatMap((i) => input.files[i]!.data),
    others.flatMap((i) => prepared.spans[i]!),
    { compiled: input.compiled, seed: input.seed, embeddings: input.embeddings },
    others.flatMap((i) => prepared.named[i]!),
  );
  // The sentence alone: clauses are scored apart below, so every factor can be tried on one training.
  const model = modelFromParts(
    { ...parts, embeddings: prepared.table },
    { name: 'fold', version: 'fold', taxonomy: '', thresholds: { ...thresholdsOf(), segment: undefined } },
  );
  const judged: Judged[] = [];
  prepared.spans[held]!.forEach((span, n) => {
    const sentence = input.files[held]!.data[n]!;
    const clauses = segmentsOf(span).map((s) => model.detect(s));
    for (const [aspect, p] of model.detect(span)) {
      const expected = sentence.aspects.find((a) => a.aspect === aspect)?.polarity;
      const j = model.judge(span, aspect, p);
      const clause = Math.max(0, ...clauses.map((c) => c.get(aspect) ?? 0));
      judged.push({
        aspect,
        sentence: p,
        clause,
        confidence: j.confidence,
        right: expected === j.polarity,
        gold: expected !== undefined,
        positive: j.polarity === 'positive',
        goldPositive: expected === 'positive',
      });
    }
  });
  return judged;
}

/** Detection F1 over held-out judgements at a clause factor. */
function detectionF1(judged: readonly Judged[], segment: number | null, threshold: number): number {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const j of judged) {
    const detected = detection(j, segment) >= threshold;
    if (detected && j.gold) tp += 1;
    else if (detected) fp += 1;
    else if (j.gold) fn += 1;
  }
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

interface Prepared {
  spans: ReturnType<typeof spansOf>[];
  named: ReturnType<typeof detectionNamed>[];
  table: ReturnType<typeof loadEmbeddingTable> | undefined;
}

/** The lowest threshold at which an aspect's counted judgements are right `target` of the time. */
interface Counted {
  threshold: number;
  counted: number;
  right: number;
  counted_positive: number;
}

function thresholdFor(judged: ReadonlyArray<{ probability: number; right: boolean; positive: boolean }>, target: number): Counted {
  let last: Counted | undefined;
  for (const t of GRID) {
    const counted = judged.filter((j) => j.probability >= t);
    const share = (f: (j: { right: boolean; positive: boolean }) => boolean) =>
      counted.length === 0 ? 0 : counted.filter(f).length / counted.length;
    const here = { threshold: t, counted: counted.length, right: share((j) => j.right), counted_positive: share((j) => j.positive) };
    // Too few left to say: the strictest threshold that still counted enough.
    if (counted.length < MIN_COUNTED) return last ?? here;
    if (here.right >= target) return here;
    last = here;
  }
  return last ?? { threshold: GRID[0] as number, counted: 0, right: 0, counted_positive: 0 };
}

/**
 * Holds out each file written as whole reviews (lines with `review`: text like real reviews) in turn,
 * trains on every other file, and pools the held-out judgements per aspect to choose its threshold.
 */
export function calibrate(input: CalibrationInput, target = CALIBRATION_TARGET): Calibration {
  const table = input.embeddings ? loadEmbeddingTable(input.embeddings) : undefined;
  const spans = input.files.map((f) => spansOf(f.data, input.compiled));
  const prepared: Prepared = { spans, named: spans.map((s) => detectionNamed(s, table)), table };
  const folds = input.files.map((f, i) => (f.data.some((s) => s.review !== undefined) ? i : -1)).filter((i) => i >= 0);
  const judged = folds.flatMap((held) => heldOut(input, held, prepared));
  const detect = thresholdsOf().detect;
  const segmentF1: Record<string, number> = {};
  let segment: number | null = null;
  for (const f of SEGMENT_GRID) {
    const f1 = Number(detectionF1(judged, f, detect).toFixed(4));
    segmentF1[f === null ? 'none' : String(f)] = f1;
    if (f1 > (segmentF1[segment === null ? 'none' : String(segment)] ?? 0)) segment = f;
  }
  const aspects: Calibration['aspects'] = {};
  for (const aspect of [...new Set(judged.map((j) => j.aspect))].sort()) {
    const own = judged.filter((j) => j.aspect === aspect);
    const counted = own
      .filter((j) => detection(j, segment) >= detect)
      .map((j) => ({ probability: detection(j, segment) * j.confidence, right: j.right, positive: j.positive }));
    const t = thresholdFor(counted, target);
    const gold = own.filter((j) => j.gold);
    aspects[aspect] = {
      ...t,
      right: round(t.right),
      counted_positive: round(t.counted_positive),
      gold: gold.length,
      gold_positive: round(gold.length === 0 ? 0 : gold.filter((j) => j.goldPositive).length / gold.length),
    };
  }
  return { target, segment, segmentF1, folds: folds.map((i) => input.files[i]!.name), aspects };
}

/** The per-aspect judgement thresholds a model takes from a calibration. */
export function aspectThresholds(calibration: Calibration): Record<string, number> {
  return Object.fromEntries(Object.entries(calibration.aspects).map(([a, c]) => [a, c.threshold]));
}
