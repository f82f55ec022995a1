import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { SHIPPED_MODELS_DIR } from '../../absa-models.js';
import type { Business } from '../../domain/business.js';
import type { Taxonomy } from '../../insights/taxonomy.js';
import { CODE_DIR } from '../../package-root.js';
import type { TimeSlicer } from '../time-slice.js';

/**
 * The engine's own code: `src/insights/` from sources, `dist/insights/` from the build (tsc's files,
 * which the bundle leaves in place: the fingerprint does not depend on how the build is bundled).
 */
const ENGINE_DIR = new URL('insights/', CODE_DIR);

function engineFiles(dir: URL): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(js|ts)$/.test(f) && !/\.test\.|\.d\.ts$/.test(f)).sort();
}

/**
 * Everything the insights document depends on besides the published data: the engine's code (which
 * holds ENGINE_VERSION and every rule), the taxonomies and the shipped model files' bytes (`method.version`
 * names only the model's version; a retrained model under the same version must still recompute). A new
 * build that changes any of them recomputes once; the NLP libraries in node_modules are not included.
 * About 4 MB, read asynchronously and hashed once per process on the main thread, which decides whether
 * the worker is needed at all (issue 15).
 */
export async function insightsFingerprint(
  taxonomies: readonly Taxonomy[],
  engineDir: URL = ENGINE_DIR,
  modelsDir: URL = SHIPPED_MODELS_DIR,
): Promise<string> {
  const h = createHash('sha256');
  h.update(`taxonomies\n${JSON.stringify(taxonomies)}\n`);
  for (const f of engineFiles(engineDir))
    h.update(`code ${f}\n`)
      .update(await readFile(new URL(f, engineDir)))
      .update('\n');
  if (existsSync(modelsDir)) {
    for (const f of readdirSync(modelsDir)
      .filter((n) => n.endsWith('-absa.json'))
      .sort()) {
      h.update(`model ${f}\n`)
        .update(await readFile(new URL(f, modelsDir)))
        .update('\n');
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
 * The hash of an insights document's inputs (issue 15): equal hashes mean equal documents, so a fresh
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
 * The key a review's analysis is stored under (issue 15: persisted per-review analyses). An analysis
 * reads only the review's text and the compiled taxonomy (analysis/review-analysis.ts), and the
 * fingerprint covers the engine, the models and the taxonomies: equal keys mean equal analyses.
 */
export function analysisKey(fingerprint: string, taxonomyId: string, text: string): string {
  return createHash('sha256').update(`${fingerprint}\n${taxonomyId}\n`).update(text).digest('base64url');
}
