import type { Polarity } from '../schema.js';
import { loadEmbeddingTable, type EmbeddingTable } from './embeddings.js';
import { IndexedSpace, WordTable } from './feature-space.js';
import {
  carrierClauses,
  detectionFeatures,
  MeanVectors,
  polarityFeatures,
  segmentsOf,
  spaceWords,
  spanWords,
  type SpaceWords,
  type Span,
  type SpanWords,
} from './features.js';
import { probabilities, type LinearModel } from './logistic.js';
import { dequantizeWeights, type AbsaModelFile } from './model-file.js';

/** One learned judgement: the aspect's detection probability and its polarity's. */
export interface LearnedJudgement {
  aspect: string;
  detection: number;
  polarity: Polarity | 'conflict';
  /** Probability of `polarity`. */
  confidence: number;
  /** P(positive) - P(negative): signed strength, orders highlights. */
  score: number;
}

export interface ModelThresholds {
  /** An aspect is detected at or above this probability. */
  detect: number;
  /** A judgement (detection × polarity probability) below this is no judgement: the engine says nothing. */
  polarity: number;
  /** Per aspect, the judgement threshold where it differs from `polarity` (calibrated per aspect). */
  aspects?: Record<string, number> | undefined;
  /**
   * Clauses are read on their own too, their detection probability counted at this factor (a clause is
   * less context than a sentence); absent: the sentence alone is read.
   */
  segment?: number | undefined;
}

/** A trained model ready to predict; built from its file once per process. */
export interface AbsaModel {
  name: string;
  version: string;
  taxonomy: string;
  thresholds: ModelThresholds;
  /** Aspects the model has a detector for; the others fall back to the cue rules. */
  aspects: readonly string[];
  embeddings: EmbeddingTable | undefined;
  /** Detection probability of every modelled aspect in a span. */
  detect(span: Span): Map<string, number>;
  /** Polarity of one aspect in a span (whether or not it was detected). */
  judge(span: Span, aspect: string, detection: number): LearnedJudgement;
}

/** The judgement threshold of an aspect: its own where calibrated, else the model's. */
export function judgementThreshold(thresholds: ModelThresholds, aspect: string): number {
  return thresholds.aspects?.[aspect] ?? thresholds.polarity;
}

/** The parts of a model that predict, as trained (float weights) or read from the file. */
export interface ModelParts {
  detectionFeatures: readonly string[];
  detectors: Map<string, LinearModel>;
  polarityFeatures: readonly string[];
  polarityModel: LinearModel;
  polarities: readonly string[];
  embeddings: EmbeddingTable | undefined;
}

/**
 * A model compiled for prediction: feature names become integer ids once (feature-space.ts), the
 * detectors' weights are interleaved (feature-major) so one pass over a sentence's features scores
 * every aspect.
 */
export function modelFromParts(
  parts: ModelParts,
  meta: { name: string; version: string; taxonomy: string; thresholds: ModelThresholds },
): AbsaModel {
  // One word table for both spaces: a sentence's words are resolved once for detection and polarity.
  const words = new WordTable();
  const detectionSpace = new IndexedSpace(parts.detectionFeatures, words);
  const polaritySpace = new IndexedSpace(parts.polarityFeatures, words);
  const detectionWords: SpaceWords<number> = spaceWords(detectionSpace);
  const polarityWords: SpaceWords<number> = spaceWords(polaritySpace);
  const aspects = [...parts.detectors.keys()];
  const k = aspects.length;
  const dims = detectionSpace.size;
  const bank = new Float64Array(dims * k);
  const bias = new Float64Array(k);
  aspects.forEach((aspect, j) => {
    const m = parts.detectors.get(aspect) as LinearModel;
    bias[j] = m.bias[0] as number;
    for (let f = 0; f < dims; f++) bank[f * k + j] = m.weights[f] as number;
  });
  const unigramWeight = (aspect: number, word: number): number => {
    const f = detectionSpace.lookup('u', word);
    return f < 0 ? 0 : Math.max(0, bank[f * k + aspect] as number);
  };
  const means = parts.embeddings ? new MeanVectors(parts.embeddings) : undefined;
  // A sentence's words, kept for its judgements after its detection (its clauses' are used once).
  const prepared = new WeakMap<Span, SpanWords<number>>();
  const prepare = (span: Span): SpanWords<number> => {
    let p = prepared.get(span);
    if (!p) prepared.set(span, (p = spanWords(span, detectionWords)));
    return p;
  };
  const z = new Float64Array(k);
  /** Every detector's probability for a span, times `factor`, kept in `p` where higher. */
  const score = (span: Span, words: SpanWords<number>, p: Float64Array, factor: number): void => {
    detectionSpace.begin();
    detectionFeatures(span, words, detectionWords, parts.embeddings, means);
    const x = detectionSpace.vector();
    z.set(bias);
    for (let i = 0; i < x.indices.length; i++) {
      const base = (x.indices[i] as number) * k;
      const v = x.values[i] as number;
      for (let j = 0; j < k; j++) z[j] = (z[j] as number) + (bank[base + j] as number) * v;
    }
    for (let j = 0; j < k; j++) p[j] = Math.max(p[j] as number, factor * sigmoid(z[j] as number));
  };
  /** Each detector's probability for the span being detected (read out before `detect` returns). */
  const detected = new Float64Array(k);
  const pos = parts.polarities.indexOf('positive');
  const neg = parts.polarities.indexOf('negative');

  return {
    ...meta,
    aspects,
    embeddings: parts.embeddings,
    detect(span) {
      const p = detected.fill(0);
      score(span, prepare(span), p, 1);
      const factor = meta.thresholds.segment;
      if (factor !== undefined) for (const segment of segmentsOf(span)) score(segment, spanWords(segment, detectionWords), p, factor);
      const out = new Map<string, number>();
      aspects.forEach((aspect, j) => out.set(aspect, p[j] as number));
      return out;
    },
    judge(span, aspect, detection) {
      const p = prepare(span);
      const j = aspects.indexOf(aspect);
      const carriers = carrierClauses(span, p, aspect, (w) => (j < 0 ? 0 : unigramWeight(j, w)));
      polaritySpace.begin();
      polarityFeatures(span, p, polarityWords, aspect, carriers, parts.embeddings, means);
      const probs = probabilities(parts.polarityModel, polaritySpace.vector());
      let best = 0;
      for (let c = 1; c < probs.length; c++) if ((probs[c] as number) > (probs[best] as number)) best = c;
      return {
        aspect,
        detection,
        polarity: parts.polarities[best] as Polarity,
        confidence: probs[best] as number,
        score: (pos >= 0 ? (probs[pos] as number) : 0) - (neg >= 0 ? (probs[neg] as number) : 0),
      };
    },
  };
}

function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function loadAbsaModel(file: AbsaModelFile): AbsaModel {
  const detectionDims = file.detection.features.length;
  const detectors = new Map<string, LinearModel>();
  for (const a of file.detection.aspects) {
    detectors.set(a.aspect, {
      classes: 1,
      dims: detectionDims,
      weights: dequantizeWeights(a.weights, detectionDims),
      bias: Float64Array.of(a.bias),
    });
  }
  const polarityDims = file.polarity.features.length;
  const k = file.polarities.length;
  const parts: ModelParts = {
    detectionFeatures: file.detection.features,
    detectors,
    polarityFeatures: file.polarity.features,
    polarityModel: {
      classes: k,
      dims: polarityDims,
      weights: dequantizeWeights(file.polarity.weights, k * polarityDims),
      bias: Float64Array.from(file.polarity.bias),
    },
    polarities: file.polarities,
    embeddings: file.embeddings ? loadEmbeddingTable(file.embeddings) : undefined,
  };
  return modelFromParts(parts, { name: file.name, version: file.version, taxonomy: file.taxonomy, thresholds: file.thresholds });
}
