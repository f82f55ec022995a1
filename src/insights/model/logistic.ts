/**
 * Sparse L2-regularised logistic regression (binary and multinomial), trained by AdaGrad SGD over a
 * seeded shuffle so that the same data and seed give the same weights, bit for bit.
 *
 * Written here rather than taken from a package: the maintained JavaScript learners (ml-logistic-
 * regression, ml-svm) take dense matrices, which at tens of thousands of n-gram features and a few
 * thousand sentences is hundreds of megabytes, and none promises deterministic training.
 */

/** One example: parallel arrays of feature indices and values. */
export interface SparseVector {
  indices: Int32Array;
  values: Float64Array;
}

export interface TrainOptions {
  epochs: number;
  /** L2 strength per example update. */
  l2: number;
  learningRate: number;
  seed: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = { epochs: 8, l2: 1e-2, learningRate: 0.2, seed: 1 };

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

/** Weights of a K-class linear model: `weights[k * dims + f]`, one bias per class. */
export interface LinearModel {
  classes: number;
  dims: number;
  weights: Float64Array;
  bias: Float64Array;
}

export function scores(model: LinearModel, x: SparseVector): Float64Array {
  const out = new Float64Array(model.classes);
  for (let k = 0; k < model.classes; k++) {
    let s = model.bias[k] as number;
    const base = k * model.dims;
    for (let i = 0; i < x.indices.length; i++) s += (model.weights[base + (x.indices[i] as number)] as number) * (x.values[i] as number);
    out[k] = s;
  }
  return out;
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function softmax(z: Float64Array): Float64Array {
  let max = -Infinity;
  for (const v of z) if (v > max) max = v;
  const out = new Float64Array(z.length);
  let sum = 0;
  for (let k = 0; k < z.length; k++) {
    out[k] = Math.exp((z[k] as number) - max);
    sum += out[k] as number;
  }
  for (let k = 0; k < z.length; k++) out[k] = (out[k] as number) / sum;
  return out;
}

/** Probability of the positive class under a binary model (classes = 1). */
export function probability(model: LinearModel, x: SparseVector): number {
  return sigmoid(scores(model, x)[0] as number);
}

/** Class probabilities under a multinomial model. */
export function probabilities(model: LinearModel, x: SparseVector): Float64Array {
  return softmax(scores(model, x));
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
