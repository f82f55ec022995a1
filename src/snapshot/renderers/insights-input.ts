import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { SHIPPED_MODELS_DIR } from '../../absa-models.js';
import type { Business } from '../../domain/business.js';
import type { Taxonomy } from '../../insights/taxonomy.js';
import type { TimeSlicer } from '../time-slice.js';

/**
 * The version of the insights renderer's code: the engine (src/insights: rules, features, report and
 * its wording), the worker and its protocol. Raise it with every change to what they compute, and only
 * then: a comment, a refactoring or training code changes nothing stored, so every analysis and
 * document kept in the database stays valid across such a build. (The model is covered by its bytes.)
 */
export const INSIGHTS_CODE_VERSION = '3';

/**
 * Everything the insights document depends on besides the published data: the code version, the
 * taxonomies and the shipped model files' content (`method.version` names only the model's version; a
 * retrained model under the same version must still recompute). A new build that changes any of them
 * recomputes once. The model files (a few MB) are read and hashed once per process on the main thread,
 * which decides whether the worker is needed at all.
 */
export async function insightsFingerprint(taxonomies: readonly Taxonomy[], modelsDir: URL = SHIPPED_MODELS_DIR): Promise<string> {
  const h = createHash('sha256');
  h.update(`insights ${INSIGHTS_CODE_VERSION}\n`);
  h.update(`taxonomies\n${JSON.stringify(taxonomies)}\n`);
  if (existsSync(modelsDir)) {
    for (const f of readdirSync(modelsDir)
      .filter((n) => n.endsWith('-absa.json'))
      .sort()) {
      const digest = createHash('sha256')
        .update(await readFile(new URL(f, modelsDir)))
        .digest('hex');
      h.update(`model ${f} ${digest}\n`);
    }
  }
  return h.digest('hex');
}

/** What the engine reads of a published view (it never reads its URLs or aggregate). */
export interface InsightsInput {
  business: Business;
  updatedAt: string;
  /** The published reviews' JSON joined by commas, newest first (the snapshot's review bytes). */
  reviews: Uint8Array;
}

// Bytes hashed between two looks at the slicer: about a millisecond of SHA-256.
const HASH_CHUNK = 1 << 20;

/**
 * The hash of an insights document's inputs: equal hashes mean equal documents, so a fresh
 * process that finds the stored document under this hash serves it without computing, or even starting
 * the worker. `updatedAt` is the document's `generated_at`; the reviews come last, hashed as one JSON
 * array (the bytes the worker is sent), so the parts cannot run together. About 10 ms at 10k reviews,
 * in slices when a slicer is given.
 */
export async function insightsInputHash(fingerprint: string, input: InsightsInput, slicer?: TimeSlicer): Promise<string> {
  const h = createHash('sha256');
  h.update(`${fingerprint}\n${JSON.stringify(input.business)}\n${input.updatedAt}\n[`);
  const reviews = input.reviews;
  for (let at = 0; at < reviews.length; at += HASH_CHUNK) {
    h.update(reviews.subarray(at, at + HASH_CHUNK));
    if (slicer?.due()) await slicer.pause();
  }
  return h.update(']').digest('hex');
}

/**
 * The key a review's analysis is stored under. An analysis reads only the review's text and rating and
 * the compiled taxonomy (analysis/review-analysis.ts), and the fingerprint covers the engine, the models
 * and the taxonomies: equal keys mean equal analyses.
 */
export function analysisKey(fingerprint: string, taxonomyId: string, review: { text: string; rating: number }): string {
  return createHash('sha256').update(`${fingerprint}\n${taxonomyId}\n${review.rating}\n`).update(review.text).digest('base64url');
}
