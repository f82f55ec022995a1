import { describe, expect, it } from 'vitest';
import { loadEmbeddingTable, meanVector, quantize } from './embeddings.js';
import { dequantizeWeights, quantizeWeights } from './model-file.js';

describe('model file encoding', () => {
  it('quantises weights to 16 bits within one step of the scale', () => {
    const w = Float64Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 3);
    const q = quantizeWeights(w);
    const back = dequantizeWeights(q, w.length);
    for (let i = 0; i < w.length; i++) expect(Math.abs((back[i] as number) - (w[i] as number))).toBeLessThanOrEqual(q.scale);
    expect(() => dequantizeWeights(q, 999)).toThrow(/expected 999/);
  });

  it('quantises word vectors to bytes and averages the words it knows', () => {
    const vectors: Record<string, number[]> = { leak: [0.5, -0.25], drip: [0.25, 0.25] };
    const table = loadEmbeddingTable(quantize(['drip', 'leak'], (w) => vectors[w] ?? [], 2));
    const mean = meanVector(table, ['leak', 'drip', 'unknown']);
    expect(mean[0]).toBeCloseTo(0.375, 2);
    expect(mean[1]).toBeCloseTo(0, 2);
    expect([...meanVector(table, ['unknown'])]).toEqual([0, 0]);
  });
});
