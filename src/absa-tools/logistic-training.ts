/**
 * Sparse L2-regularised logistic regression (binary and multinomial), trained by AdaGrad SGD over a
 * seeded shuffle so that the same data and seed give the same weights, bit for bit.
 *
 * Written here rather than taken from a package: the maintained JavaScript learners (ml-logistic-
 * regression, ml-svm) take dense matrices, which at tens of thousands of n-gram features and a few
 * thousand sentences is hundreds of megabytes, and none promises deterministic training.
 */
import { probabilities, probability, type LinearModel, type SparseVector } from '../insights/model/logistic.js';

export interface TrainOptions {
  epochs: number;
  /** L2 strength per example update. */
  l2: number;
  learningRate: number;
  seed: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = { epochs: 8, l2: 5e-2, learningRate: 0.2, seed: 1 };

/** mulberry32: a small seeded PRNG; the shuffle order is all the randomness training has. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled(n: number, random: () => number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = order[i] as number;
    order[i] = order[j] as number;
    order[j] = t;
  }
  return order;
}

/**
 * Trains a model on `labels` (0/1 for a binary model with classes = 1; 0..K-1 otherwise).
 * `weightOf` lets rare classes count more (per example).
 */
export function train(
  examples: readonly SparseVector[],
  labels: readonly number[],
  classes: number,
  dims: number,
  options: TrainOptions,
  weightOf: (label: number) => number = () => 1,
): LinearModel {
  const binary = classes === 1;
  const model: LinearModel = { classes, dims, weights: new Float64Array(classes * dims), bias: new Float64Array(classes) };
  const g2 = new Float64Array(classes * dims).fill(1e-8);
  const g2b = new Float64Array(classes).fill(1e-8);
  const random = seededRandom(options.seed);
  const grad = new Float64Array(classes);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    const order = shuffled(examples.length, random);
    for (const n of order) {
      const x = examples[n] as SparseVector;
      const y = labels[n] as number;
      const w = weightOf(y);
      if (binary) {
        grad[0] = w * (probability(model, x) - y);
      } else {
        const p = probabilities(model, x);
        for (let k = 0; k < classes; k++) grad[k] = w * ((p[k] as number) - (k === y ? 1 : 0));
      }
      for (let k = 0; k < classes; k++) {
        const gk = grad[k] as number;
        const base = k * dims;
        for (let i = 0; i < x.indices.length; i++) {
          const f = base + (x.indices[i] as number);
          const wf = model.weights[f] as number;
          const g = gk * (x.values[i] as number) + options.l2 * wf;
          g2[f] = (g2[f] as number) + g * g;
          model.weights[f] = wf - (options.learningRate * g) / Math.sqrt(g2[f] as number);
        }
        g2b[k] = (g2b[k] as number) + gk * gk;
        model.bias[k] = (model.bias[k] as number) - (options.learningRate * gk) / Math.sqrt(g2b[k] as number);
      }
    }
  }
  return model;
}
