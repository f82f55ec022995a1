import type { EmbeddingTableData } from '../insights/model/embeddings.js';
import type { QuantizedWeights } from '../insights/model/model-file.js';

/** Writing a model file: weights and word vectors quantised, numbers rounded, so the text is reproducible. */

export function quantizeWeights(values: Float64Array): QuantizedWeights {
  let max = 0;
  for (const v of values) max = Math.max(max, Math.abs(v));
  const scale = Number((max / 32767).toPrecision(8)) || 1;
  const out = new Int16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Math.round((values[i] as number) / scale);
  return { scale, data: Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('base64') };
}

/** Rounds a number for the file so the same training gives the same text. */
export function round(v: number, digits = 6): number {
  return Number(v.toPrecision(digits));
}

export function quantize(words: readonly string[], vectorOf: (word: string) => readonly number[], dims: number): EmbeddingTableData {
  const bytes = new Int8Array(words.length * dims);
  const scales: number[] = [];
  words.forEach((word, w) => {
    const v = vectorOf(word);
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(v[d] ?? 0));
    const scale = Number((max / 127).toPrecision(6)) || 1;
    scales.push(scale);
    for (let d = 0; d < dims; d++) bytes[w * dims + d] = Math.max(-127, Math.min(127, Math.round((v[d] ?? 0) / scale)));
  });
  return { dims, words: [...words], scales, vectors: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}
