import { createHash } from 'node:crypto';
import type { CompiledTaxonomy } from '../insights/analysis/compiled-taxonomy.js';
import { tokenize } from '../insights/nlp/wink.js';
import type { ModelParts, ModelThresholds } from '../insights/model/absa-model.js';
import { loadEmbeddingTable, type EmbeddingTable, type EmbeddingTableData } from '../insights/model/embeddings.js';
import { NamingSpace } from '../insights/model/feature-space.js';
import {
  buildSpan,
  carrierClauses,
  detectionFeatures,
  polarityFeatures,
  spaceWords,
  spanWords,
  withReviewContext,
  type Span,
} from '../insights/model/features.js';
import type { LinearModel, SparseVector } from '../insights/model/logistic.js';
import type { AbsaModelFile } from '../insights/model/model-file.js';
import type { LabelledSentence } from './absa-eval.js';
import { DEFAULT_TRAIN_OPTIONS, train, type TrainOptions } from './logistic-training.js';
import { quantizeWeights, round } from './quantize.js';

export interface TrainAbsaOptions {
  compiled: CompiledTaxonomy;
  name: string;
  seed: number;
  /** File names recorded in the model (base names, so the file does not depend on where it was trained). */
  files: string[];
  embeddings?: EmbeddingTableData | undefined;
  learner?: Partial<TrainOptions>;
  /** Overrides of `learner` for the polarity model. */
  polarityLearner?: Partial<TrainOptions>;
  /** Per-aspect judgement thresholds (calibrate.ts), written into the model. */
  aspectThresholds?: Record<string, number> | undefined;
  /** The factor a clause read on its own counts at (calibrate.ts); absent: the sentence alone is read. */
  segment?: number | undefined;
}

/** An aspect needs this many positive sentences to get a detector; below it the cue rules decide. */
export const MIN_ASPECT_SENTENCES = 8;
/** A feature must occur in this many training examples to be kept (rarer ones are noise). */
const MIN_FEATURE_COUNT = 2;
/** Chosen by leave-one-writer-out cross-validation on the training corpus (docs/insights.md). */
export const DETECT_THRESHOLD = 0.35;
export const JUDGEMENT_THRESHOLD = 0.5;
/** Polarity reads fewer, noisier features per example than detection: it wants stronger regularisation. */
const POLARITY_L2 = 3e-2;
const HOME_POLARITIES = ['positive', 'negative', 'neutral'];

/** Word-vector dimensions are kept however rare (every sentence has all of them or none). */
const VECTOR_FEATURE = /^w?v:/;

/** Feature names → indices while training (strings are fine here: training is not the hot path). */
class Dictionary {
  private readonly index: Map<string, number>;
  constructor(readonly names: readonly string[]) {
    this.index = new Map(names.map((n, i) => [n, i]));
  }
  get(name: string): number | undefined {
    return this.index.get(name);
  }
  /** Known features only, in ascending index order, zeros left out. */
  vectorize(f: ReadonlyMap<string, number>): SparseVector {
    const pairs: Array<[number, number]> = [];
    for (const [name, value] of f) {
      const i = this.index.get(name);
      if (i !== undefined && value !== 0) pairs.push([i, value]);
    }
    pairs.sort((a, b) => a[0] - b[0]);
    return { indices: Int32Array.from(pairs, (p) => p[0]), values: Float64Array.from(pairs, (p) => p[1]) };
  }
}

function dictionary(examples: ReadonlyArray<ReadonlyMap<string, number>>): Dictionary {
  const counts = new Map<string, number>();
  for (const f of examples) for (const name of f.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = [...counts].filter(([n, c]) => c >= MIN_FEATURE_COUNT || VECTOR_FEATURE.test(n)).map(([n]) => n);
  names.sort();
  return new Dictionary(names);
}

/**
 * Sentences tokenized once, each labelled line as one span (a line may hold several wink sentences),
 * each in its review's context: lines with the same `review` id in a row are one review, in order.
 */
export function spansOf(data: readonly LabelledSentence[], compiled: CompiledTaxonomy): Span[] {
  const spans = data.map((s) => {
    const { tokens } = tokenize(s.text);
    return buildSpan(tokens, 0, tokens.length, compiled, { rating: s.rating });
  });
  for (let i = 0; i < data.length;) {
    const review = data[i]?.review;
    let j = i + 1;
    while (review !== undefined && j < data.length && data[j]?.review === review) j += 1;
    if (review !== undefined) withReviewContext(spans.slice(i, j), data[i]?.rating);
    i = j;
  }
  return spans;
}

/** The named features of spans for detection: they depend on the spans only, so folds can share them. */
export function detectionNamed(spans: readonly Span[], embeddings: EmbeddingTable | undefined): Array<Map<string, number>> {
  const space = new NamingSpace();
  const sw = spaceWords(space);
  return spans.map((span) => {
    detectionFeatures(span, spanWords(span, sw), sw, embeddings);
    return space.take();
  });
}

export interface TrainedParts {
  parts: ModelParts;
  polarities: string[];
}

/** Trains detectors and the polarity model; pure and deterministic for the same inputs and seed. */
export function trainParts(
  data: readonly LabelledSentence[],
  spans: readonly Span[],
  options: Pick<TrainAbsaOptions, 'compiled' | 'seed' | 'embeddings' | 'learner' | 'polarityLearner'>,
  named?: ReadonlyArray<ReadonlyMap<string, number>>,
): TrainedParts {
  const learner: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...options.learner, seed: options.seed };
  const embeddings = options.embeddings ? loadEmbeddingTable(options.embeddings) : undefined;
  const detectionExamples = named ?? detectionNamed(spans, embeddings);
  const detectionIndex = dictionary(detectionExamples);
  const detectionX = detectionExamples.map((f) => detectionIndex.vectorize(f));
  const detectors = new Map<string, LinearModel>();
  for (const aspect of options.compiled.taxonomy.aspects.map((a) => a.id)) {
    const y = data.map((s) => (s.aspects.some((a) => a.aspect === aspect) ? 1 : 0));
    const positives = y.reduce<number>((n, v) => n + v, 0);
    if (positives < MIN_ASPECT_SENTENCES) continue;
    detectors.set(aspect, train(detectionX, y, 1, detectionIndex.names.length, learner));
  }
  const usesConflict = data.some((s) => s.aspects.some((a) => a.polarity === 'conflict'));
  const polarities = usesConflict ? [...HOME_POLARITIES, 'conflict'] : HOME_POLARITIES;
  // The clause that carries an aspect with no cue is the one its detector weighs most (features.ts).
  const affinity = (aspect: string) => {
    const m = detectors.get(aspect);
    return (marked: string): number => {
      const i = m ? detectionIndex.get(`u:${marked}`) : undefined;
      return i === undefined || !m ? 0 : Math.max(0, m.weights[i] as number);
    };
  };
  const space = new NamingSpace();
  const sw = spaceWords(space);
  const polarityNamed: Array<Map<string, number>> = [];
  const polarityY: number[] = [];
  data.forEach((s, n) => {
    const span = spans[n] as Span;
    const words = spanWords(span, sw);
    const seen = new Set<string>();
    for (const a of s.aspects) {
      if (seen.has(a.aspect)) continue;
      seen.add(a.aspect);
      polarityFeatures(span, words, sw, a.aspect, carrierClauses(span, words, a.aspect, affinity(a.aspect)), embeddings);
      polarityNamed.push(space.take());
      polarityY.push(polarities.indexOf(a.polarity));
    }
  });
  const polarityIndex = dictionary(polarityNamed);
  const polarityModel = train(
    polarityNamed.map((f) => polarityIndex.vectorize(f)),
    polarityY,
    polarities.length,
    polarityIndex.names.length,
    { ...learner, l2: POLARITY_L2, ...options.polarityLearner, seed: learner.seed + 1 },
  );
  return {
    parts: {
      detectionFeatures: detectionIndex.names,
      detectors,
      polarityFeatures: polarityIndex.names,
      polarityModel,
      polarities,
      embeddings,
    },
    polarities,
  };
}

function versionOf(data: readonly LabelledSentence[], options: TrainAbsaOptions, learner: TrainOptions): string {
  const hash = createHash('sha256');
  for (const s of data) hash.update(JSON.stringify([s.id, s.text, s.aspects, s.review ?? null, s.rating ?? null])).update('\n');
  hash.update(
    JSON.stringify({
      seed: options.seed,
      learner,
      taxonomy: options.compiled.taxonomy.id,
      thresholds: options.aspectThresholds ?? null,
      segment: options.segment ?? null,
    }),
  );
  if (options.embeddings) hash.update(options.embeddings.vectors);
  return hash.digest('hex').slice(0, 12);
}

export function thresholdsOf(aspectThresholds?: Record<string, number>, segment?: number): ModelThresholds {
  const aspects = aspectThresholds && Object.keys(aspectThresholds).length > 0 ? aspectThresholds : undefined;
  return {
    detect: DETECT_THRESHOLD,
    polarity: JUDGEMENT_THRESHOLD,
    ...(aspects ? { aspects } : {}),
    ...(segment !== undefined ? { segment } : {}),
  };
}

/** Trains a model and returns its file contents. */
export function trainAbsaModel(data: readonly LabelledSentence[], options: TrainAbsaOptions): AbsaModelFile {
  const spans = spansOf(data, options.compiled);
  const { parts, polarities } = trainParts(data, spans, options);
  const learner: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...options.learner, seed: options.seed };
  return {
    format: 'review-data-absa/2',
    name: options.name,
    taxonomy: options.compiled.taxonomy.id,
    version: versionOf(data, options, learner),
    seed: options.seed,
    trained_on: { sentences: data.length, labels: data.reduce((n, s) => n + s.aspects.length, 0), files: options.files },
    thresholds: thresholdsOf(options.aspectThresholds, options.segment),
    polarities,
    detection: {
      features: [...parts.detectionFeatures],
      aspects: [...parts.detectors].map(([aspect, m]) => ({
        aspect,
        bias: round(m.bias[0] as number),
        weights: quantizeWeights(m.weights),
      })),
    },
    polarity: {
      features: [...parts.polarityFeatures],
      bias: [...parts.polarityModel.bias].map((b) => round(b)),
      weights: quantizeWeights(parts.polarityModel.weights),
    },
    embeddings: options.embeddings ?? null,
  };
}
