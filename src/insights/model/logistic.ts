/**
 * Linear models as the engine runs them: sparse examples, K-class weights, scores and probabilities.
 * Training lives with the training tools (src/absa-tools/logistic-training.ts).
 */

/** One example: parallel arrays of feature indices and values. */
export interface SparseVector {
  indices: Int32Array;
  values: Float64Array;
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
