import { createHash } from 'node:crypto';
import type { CompiledTaxonomy } from '../analysis/compiled-taxonomy.js';
import type { LabelledSentence } from '../eval/absa-eval.js';
import { tokenize } from '../nlp/wink.js';
import { affinityOf, FeatureIndex, type ModelParts } from './absa-model.js';
import { loadEmbeddingTable, type EmbeddingTableData } from './embeddings.js';
import { buildSpan, carrierClauses, detectionFeatures, polarityFeatures, type NamedFeatures, type Span } from './features.js';
import { DEFAULT_TRAIN_OPTIONS, train, type LinearModel, type TrainOptions } from './logistic.js';
import { quantizeWeights, round, type AbsaModelFile } from './model-file.js';

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
}

/** An aspect needs this many positive sentences to get a detector; below it the cue rules decide. */
export const MIN_ASPECT_SENTENCES = 8;
/** A feature must occur in this many training examples to be kept (rarer ones are noise). */
const MIN_FEATURE_COUNT = 2;
/** Chosen by leave-one-writer-out cross-validation on the training corpus (docs/insights.md). */
const DETECT_THRESHOLD = 0.35;
const JUDGEMENT_THRESHOLD = 0.5;
/** Polarity reads fewer, noisier features per example than detection: it wants stronger regularisation. */
const POLARITY_L2 = 3e-2;
const HOME_POLARITIES = ['positive', 'negative', 'neutral'];

function dictionary(examples: readonly NamedFeatures[]): FeatureIndex {
  const counts = new Map<string, number>();
  for (const f of examples) for (const name of f.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = [...counts].filter(([n, c]) => c >= MIN_FEATURE_COUNT || /(^|:)v\d+$/.test(n)).map(([n]) => n);
  names.sort();
  return new FeatureIndex(names);
}

/** Sentences tokenized once, each as one span (a labelled line may hold several wink sentences). */
export function spansOf(data: readonly LabelledSentence[], compiled: CompiledTaxonomy): Span[] {
  return data.map((s) => {
    const { tokens } = tokenize(s.text);
    return buildSpan(tokens, 0, tokens.length, compiled);
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
): TrainedParts {
  const learner: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...options.learner, seed: options.seed };
  const embeddings = options.embeddings ? loadEmbeddingTable(options.embeddings) : undefined;
  const detectionNamed = spans.map((s) => detectionFeatures(s, embeddings));
  const detectionIndex = dictionary(detectionNamed);
  const detectionX = detectionNamed.map((f) => detectionIndex.vectorize(f));
  const detectors = new Map<string, LinearModel>();
  for (const aspect of options.compiled.taxonomy.aspects.map((a) => a.id)) {
    const y = data.map((s) => (s.aspects.some((a) => a.aspect === aspect) ? 1 : 0));
    const positives = y.reduce<number>((n, v) => n + v, 0);
    if (positives < MIN_ASPECT_SENTENCES) continue;
    detectors.set(aspect, train(detectionX, y, 1, detectionIndex.size, learner));
  }
  const usesConflict = data.some((s) => s.aspects.some((a) => a.polarity === 'conflict'));
  const polarities = usesConflict ? [...HOME_POLARITIES, 'conflict'] : HOME_POLARITIES;
  const partial: ModelParts = {
    detectionIndex,
    detectors,
    polarityIndex: new FeatureIndex([]),
    polarityModel: { classes: polarities.length, dims: 0, weights: new Float64Array(0), bias: new Float64Array(polarities.length) },
    polarities,
    embeddings,
  };
  const affinity = affinityOf(partial);
  const polarityNamed: NamedFeatures[] = [];
  const polarityY: number[] = [];
  data.forEach((s, n) => {
    const span = spans[n] as Span;
    const seen = new Set<string>();
    for (const a of s.aspects) {
      if (seen.has(a.aspect)) continue;
      seen.add(a.aspect);
      polarityNamed.push(polarityFeatures(span, a.aspect, carrierClauses(span, a.aspect, affinity), embeddings));
      polarityY.push(polarities.indexOf(a.polarity));
    }
  });
  const polarityIndex = dictionary(polarityNamed);
  const polarityModel = train(
    polarityNamed.map((f) => polarityIndex.vectorize(f)),
    polarityY,
    polarities.length,
    polarityIndex.size,
    { ...learner, l2: POLARITY_L2, ...options.polarityLearner, seed: learner.seed + 1 },
  );
  return { parts: { ...partial, polarityIndex, polarityModel }, polarities };
}

function versionOf(data: readonly LabelledSentence[], options: TrainAbsaOptions, learner: TrainOptions): string {
  const hash = createHash('sha256');
  for (const s of data) hash.update(JSON.stringify([s.id, s.text, s.aspects])).update('\n');
  hash.update(JSON.stringify({ seed: options.seed, learner, taxonomy: options.compiled.taxonomy.id }));
  if (options.embeddings) hash.update(options.embeddings.vectors);
  return hash.digest('hex').slice(0, 12);
}

/** Trains a model and returns its file contents. */
export function trainAbsaModel(data: readonly LabelledSentence[], options: TrainAbsaOptions): AbsaModelFile {
  const spans = spansOf(data, options.compiled);
  const { parts, polarities } = trainParts(data, spans, options);
  const learner: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...options.learner, seed: options.seed };
  return {
    format: 'review-data-absa/1',
    name: options.name,
    taxonomy: options.compiled.taxonomy.id,
    version: versionOf(data, options, learner),
    seed: options.seed,
    trained_on: { sentences: data.length, labels: data.reduce((n, s) => n + s.aspects.length, 0), files: options.files },
    thresholds: { detect: DETECT_THRESHOLD, polarity: JUDGEMENT_THRESHOLD },
    polarities,
    detection: {
      features: [...parts.detectionIndex.names],
      aspects: [...parts.detectors].map(([aspect, m]) => ({
        aspect,
        bias: round(m.bias[0] as number),
        weights: quantizeWeights(m.weights),
      })),
    },
    polarity: {
      features: [...parts.polarityIndex.names],
      bias: [...parts.polarityModel.bias].map((b) => round(b)),
      weights: quantizeWeights(parts.polarityModel.weights),
    },
    embeddings: options.embeddings ?? null,
  };
}
