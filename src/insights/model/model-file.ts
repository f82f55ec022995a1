import { z } from 'zod';

/**
 * The trained ABSA model as a file: text (JSON) so that `train-absa` can be checked to reproduce the
 * committed file byte for byte. Weights are quantised to 16 bits with one scale per block. Format 2 names
 * features `template:word [word]` (feature-space.ts); format 1 files are refused (retrain them).
 */
export const QuantizedWeightsSchema = z.object({
  scale: z.number(),
  /** base64 of little-endian Int16 values. */
  data: z.string(),
});
export type QuantizedWeights = z.infer<typeof QuantizedWeightsSchema>;

export const AbsaModelFileSchema = z.object({
  format: z.literal('review-data-absa/2'),
  name: z.string(),
  taxonomy: z.string(),
  /** Content hash of what the model was trained from (data, seed, options): its version. */
  version: z.string(),
  seed: z.number().int(),
  trained_on: z.object({ sentences: z.number().int(), labels: z.number().int(), files: z.array(z.string()) }),
  thresholds: z.object({
    /** An aspect is detected at or above this probability. */
    detect: z.number(),
    /** A judgement (detection × polarity probability) below this is no judgement: the engine says nothing. */
    polarity: z.number(),
    /** Per aspect, a judgement threshold calibrated by cross-validation, where it differs from `polarity`. */
    aspects: z.record(z.string(), z.number()).optional(),
    /** Clauses are read on their own too, their detection probability counted at this factor. */
    segment: z.number().optional(),
  }),
  polarities: z.array(z.string()),
  detection: z.object({
    features: z.array(z.string()),
    aspects: z.array(z.object({ aspect: z.string(), bias: z.number(), weights: QuantizedWeightsSchema })),
  }),
  polarity: z.object({
    features: z.array(z.string()),
    bias: z.array(z.number()),
    weights: QuantizedWeightsSchema,
  }),
  embeddings: z.object({ dims: z.number().int(), words: z.array(z.string()), scales: z.array(z.number()), vectors: z.string() }).nullable(),
});
export type AbsaModelFile = z.infer<typeof AbsaModelFileSchema>;

export function dequantizeWeights(w: QuantizedWeights, expected: number): Float64Array {
  const buf = Buffer.from(w.data, 'base64');
  if (buf.byteLength !== expected * 2) throw new Error(`model weights: expected ${expected} values, found ${buf.byteLength / 2}`);
  const out = new Float64Array(expected);
  for (let i = 0; i < expected; i++) out[i] = buf.readInt16LE(i * 2) * w.scale;
  return out;
}

/**
 * The model that judges a taxonomy: the one trained for it, else for the nearest taxonomy it extends
 * (`chain`, nearest first, from taxonomyLineage).
 */
export function modelFileFor<F extends { taxonomy: string }>(files: readonly F[], chain: readonly string[]): F | undefined {
  for (const id of chain) {
    const file = files.find((m) => m.taxonomy === id);
    if (file) return file;
  }
  return undefined;
}
