import type { Polarity } from '../schema.js';
import { loadEmbeddingTable, type EmbeddingTable } from './embeddings.js';
import { carrierClauses, detectionFeatures, polarityFeatures, type NamedFeatures, type Span } from './features.js';
import { probabilities, probability, type LinearModel, type SparseVector } from './logistic.js';
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

/** A trained model ready to predict; built from its file once per process. */
export interface AbsaModel {
  name: string;
  version: string;
  taxonomy: string;
  thresholds: { detect: number; polarity: number };
  /** Aspects the model has a detector for; the others fall back to the cue rules. */
  aspects: readonly string[];
  embeddings: EmbeddingTable | undefined;
  /** Detection probability of every modelled aspect in a span. */
  detect(span: Span): Map<string, number>;
  /** Polarity of one aspect in a span (whether or not it was detected). */
  judge(span: Span, aspect: string, detection: number): LearnedJudgement;
}

/** More features than any one example can have (a sentence is capped far below this). */
const POSITIONS = 2 ** 20;

export class FeatureIndex {
  private readonly index: Map<string, number>;
  constructor(readonly names: readonly string[]) {
    this.index = new Map(names.map((n, i) => [n, i]));
  }
  get size(): number {
    return this.names.length;
  }
  get(name: string): number | undefined {
    return this.index.get(name);
  }
  /** Known features only, in ascending index order (the order training summed them in). */
  vectorize(f: NamedFeatures): SparseVector {
    // Sort keys pack (index, position) in one float64: a native numeric sort, no pair objects.
    const keys = new Float64Array(f.size);
    const values = new Float64Array(f.size);
    let n = 0;
    for (const [name, value] of f) {
      const i = this.index.get(name);
      if (i === undefined || value === 0) continue;
      keys[n] = i * POSITIONS + n;
      values[n] = value;
      n++;
    }
    const sorted = keys.subarray(0, n).sort();
    const out = { indices: new Int32Array(n), values: new Float64Array(n) };
    for (let k = 0; k < n; k++) {
      const key = sorted[k] as number;
      const position = key % POSITIONS;
      out.indices[k] = (key - position) / POSITIONS;
      out.values[k] = values[position] as number;
    }
    return out;
  }
}

/** The parts of a model that predict; shared by training (float weights) and loading (from the file). */
export interface ModelParts {
  detectionIndex: FeatureIndex;
  detectors: Map<string, LinearModel>;
  polarityIndex: FeatureIndex;
  polarityModel: LinearModel;
  polarities: readonly string[];
  embeddings: EmbeddingTable | undefined;
}

/** How strongly an aspect's detector weighs a clause's words: finds the clause that carries it. */
export function affinityOf(parts: ModelParts): (aspect: string, terms: readonly string[]) => number {
  return (aspect, terms) => {
    const m = parts.detectors.get(aspect);
    if (!m) return 0;
    let s = 0;
    for (const t of terms) {
      const i = parts.detectionIndex.get(t);
      if (i !== undefined) s += Math.max(0, m.weights[i] as number);
    }
    return s;
  };
}

export function detectWith(parts: ModelParts, span: Span): Map<string, number> {
  const x = parts.detectionIndex.vectorize(detectionFeatures(span, parts.embeddings));
  const out = new Map<string, number>();
  for (const [aspect, m] of parts.detectors) out.set(aspect, probability(m, x));
  return out;
}

export function judgeWith(
  parts: ModelParts,
  affinity: (aspect: string, terms: readonly string[]) => number,
  span: Span,
  aspect: string,
  detection: number,
): LearnedJudgement {
  const carriers = carrierClauses(span, aspect, affinity);
  const p = probabilities(parts.polarityModel, parts.polarityIndex.vectorize(polarityFeatures(span, aspect, carriers, parts.embeddings)));
  let best = 0;
  for (let k = 1; k < p.length; k++) if ((p[k] as number) > (p[best] as number)) best = k;
  const pos = parts.polarities.indexOf('positive');
  const neg = parts.polarities.indexOf('negative');
  return {
    aspect,
    detection,
    polarity: parts.polarities[best] as Polarity,
    confidence: p[best] as number,
    score: (pos >= 0 ? (p[pos] as number) : 0) - (neg >= 0 ? (p[neg] as number) : 0),
  };
}

export function loadAbsaModel(file: AbsaModelFile): AbsaModel {
  const detectionIndex = new FeatureIndex(file.detection.features);
  const detectors = new Map<string, LinearModel>();
  for (const a of file.detection.aspects) {
    detectors.set(a.aspect, {
      classes: 1,
      dims: detectionIndex.size,
      weights: dequantizeWeights(a.weights, detectionIndex.size),
      bias: Float64Array.of(a.bias),
    });
  }
  const polarityIndex = new FeatureIndex(file.polarity.features);
  const k = file.polarities.length;
  const parts: ModelParts = {
    detectionIndex,
    detectors,
    polarityIndex,
    polarityModel: {
      classes: k,
      dims: polarityIndex.size,
      weights: dequantizeWeights(file.polarity.weights, k * polarityIndex.size),
      bias: Float64Array.from(file.polarity.bias),
    },
    polarities: file.polarities,
    embeddings: file.embeddings ? loadEmbeddingTable(file.embeddings) : undefined,
  };
  return modelFromParts(parts, { name: file.name, version: file.version, taxonomy: file.taxonomy, thresholds: file.thresholds });
}

export function modelFromParts(
  parts: ModelParts,
  meta: { name: string; version: string; taxonomy: string; thresholds: { detect: number; polarity: number } },
): AbsaModel {
  const affinity = affinityOf(parts);
  return {
    ...meta,
    aspects: [...parts.detectors.keys()],
    embeddings: parts.embeddings,
    detect: (span) => detectWith(parts, span),
    judge: (span, aspect, detection) => judgeWith(parts, affinity, span, aspect, detection),
  };
}
