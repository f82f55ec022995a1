import { describe, expect, it } from 'vitest';
import { probabilities, probability, type SparseVector } from '../../src/insights/model/logistic.js';
import { seededRandom, train } from '../../src/absa-tools/logistic-training.js';

/** Two noisy features decide the class; the third is noise. */
function dataset(n: number, seed: number): { x: SparseVector[]; y: number[] } {
  const random = seededRandom(seed);
  const x: SparseVector[] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const label = random() < 0.5 ? 1 : 0;
    const a = label === 1 ? (random() < 0.85 ? 1 : 0) : random() < 0.15 ? 1 : 0;
    x.push({ indices: Int32Array.of(0, 1, 2), values: Float64Array.of(a, 1 - a, random()) });
    y.push(label);
  }
  return { x, y };
}

const options = { epochs: 8, l2: 1e-3, learningRate: 0.2, seed: 7 };

describe('logistic regression', () => {
  it('is deterministic: the same data and seed give the same weights bit for bit', () => {
    const { x, y } = dataset(400, 1);
    const a = train(x, y, 1, 3, options);
    const b = train(x, y, 1, 3, options);
    expect(Buffer.from(a.weights.buffer).equals(Buffer.from(b.weights.buffer))).toBe(true);
    const c = train(x, y, 1, 3, { ...options, seed: 8 });
    expect(Buffer.from(a.weights.buffer).equals(Buffer.from(c.weights.buffer))).toBe(false);
  });

  it('learns a noisy rule and gives calibrated probabilities', () => {
    const { x, y } = dataset(2000, 2);
    const m = train(x, y, 1, 3, options);
    const test = dataset(2000, 3);
    // Calibration: where the model says ~85%, about 85% are positive (the data's own noise level).
    const high = test.x.map((v, i) => [probability(m, v), test.y[i] ?? 0] as const).filter(([p]) => p > 0.5);
    const observed = high.reduce((s, [, label]) => s + label, 0) / high.length;
    const predicted = high.reduce((s, [p]) => s + p, 0) / high.length;
    expect(observed).toBeGreaterThan(0.8);
    expect(Math.abs(observed - predicted)).toBeLessThan(0.05);
  });

  it('trains a multinomial model whose probabilities sum to one', () => {
    const x: SparseVector[] = [];
    const y: number[] = [];
    for (let i = 0; i < 300; i++) {
      const k = i % 3;
      x.push({ indices: Int32Array.of(k), values: Float64Array.of(1) });
      y.push(k);
    }
    const m = train(x, y, 3, 3, options);
    for (let k = 0; k < 3; k++) {
      const p = probabilities(m, { indices: Int32Array.of(k), values: Float64Array.of(1) });
      expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 10);
      expect(Math.max(...p)).toBe(p[k]);
    }
  });
});
