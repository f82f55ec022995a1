import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SHIPPED_MODELS_DIR } from '../../absa-models.js';
import type { Business } from '../../domain/business.js';
import type { Taxonomy } from '../../insights/taxonomy.js';

/** The engine's own code: `src/insights/` from sources, `dist/insights/` from the build. */
const ENGINE_DIR = new URL('../../insights/', import.meta.url);

function engineFiles(dir: URL): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(js|ts)$/.test(f) && !/\.test\.|\.d\.ts$/.test(f)).sort();
}

/**
 * Everything the insights document depends on besides the published data: the engine's code (which
 * holds ENGINE_VERSION and every rule), the taxonomies and the shipped model files' bytes (`method.version`
 * names only the model's version; a retrained model under the same version must still recompute). A new
 * build that changes any of them recomputes once; the NLP libraries in node_modules are not included.
 * Read in the worker: about 4 MB read and hashed once per process, off the main thread.
 */
export function insightsFingerprint(
  taxonomies: readonly Taxonomy[],
  engineDir: URL = ENGINE_DIR,
  modelsDir: URL = SHIPPED_MODELS_DIR,
): string {
  const h = createHash('sha256');
  h.update(`taxonomies\n${JSON.stringify(taxonomies)}\n`);
  for (const f of engineFiles(engineDir))
    h.update(`code ${f}\n`)
      .update(readFileSync(new URL(f, engineDir)))
      .update('\n');
  if (existsSync(modelsDir)) {
    for (const f of readdirSync(modelsDir)
      .filter((n) => n.endsWith('-absa.json'))
      .sort()) {
      h.update(`model ${f}\n`)
        .update(readFileSync(new URL(f, modelsDir)))
        .update('\n');
    }
  }
  return h.digest('hex');
}

/** What the engine reads of a published view (it never reads its URLs or aggregate). */
export interface InsightsInput {
  business: Business;
  updatedAt: string;
  /** The published reviews as a JSON array, UTF-8, newest first. */
  reviews: Uint8Array;
}

/**
 * The hash of an insights document's inputs (issue 15): equal hashes mean equal documents, so a fresh
 * process that finds the stored document under this hash serves it without computing. `updatedAt` is the
 * document's `generated_at`; the reviews come last, as one JSON array, so the parts cannot run together.
 */
export function insightsInputHash(fingerprint: string, input: InsightsInput): string {
  const h = createHash('sha256');
  h.update(`${fingerprint}\n${JSON.stringify(input.business)}\n${input.updatedAt}\n`);
  h.update(input.reviews);
  return h.digest('hex');
}
