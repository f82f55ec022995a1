import { describe, expect, it } from 'vitest';
import { addMeanVector, loadEmbeddingTable } from '../../src/insights/model/embeddings.js';
import { dequantizeWeights } from '../../src/insights/model/model-file.js';
import { quantize, quantizeWeights } from '../../src/absa-tools/quantize.js';

describe('model file encoding', () => {
  it('quantises weights to 16 bits within one step of the scale', () => {
    const w = Float64Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 3);
    const q = quantizeWeights(w);
    const back = dequantizeWeights(q, w.length);
    for (let i = 0; i < w.length; i++) expect(Math.abs((back[i] as number) - (w[i] as number))).toBeLessThanOrEqual(q.scale);
    expect(() => dequantizeWeights(q, 999)).toThrow(/expected 999/);
  });

  it('quantises word vectors to bytes and sums the words it knows', () => {
    const vectors: Record<string, number[]> = { leak: [0.5, -0.25], drip: [0.25, 0.25] };
    const table = loadEmbeddingTable(quantize(['drip', 'leak'], (w) => vectors[w] ?? [], 2));
    const sum = new Float64Array(2);
    expect(addMeanVector(table, 'leak', sum)).toBe(true);
    expect(addMeanVector(table, 'drip', sum)).toBe(true);
    expect(addMeanVector(table, 'unknown', sum)).toBe(false);
    expect(sum[0]).toBeCloseTo(0.75, 2);
    expect(sum[1]).toBeCloseTo(0, 2);
  });
});
