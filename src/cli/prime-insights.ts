import { loadConfig, type Config } from '../config.js';
import { createServiceUrls } from '../domain/urls.js';
import { openDocumentCache, type DocumentCache } from '../snapshot/document-cache.js';
import { datasetRenderer } from '../snapshot/renderers/dataset.js';
import { createInsightsRenderer } from '../snapshot/renderers/insights.js';
import { createSnapshotBuilder } from '../snapshot/snapshot-builder.js';
import type { DatabaseHandle } from '../storage/connect.js';
import { createAnalysisCacheStore } from '../storage/analysis-cache-store.js';
import { createDocumentCacheStore } from '../storage/document-cache-store.js';
import { createReviewStore } from '../storage/review-store.js';
import { loadTaxonomyFile } from '../taxonomy-file.js';
import type { CliIo } from './command.js';

/**
 * What priming did: rendered and stored the insights, found them stored for these inputs already, or
 * left them (a document is stored: a server serves it at once and renders the change itself).
 */
export type PrimeOutcome = 'stored' | 'unchanged' | 'left';

/**
 * Renders the insights of the data as it now stands and stores them, with the per-review analyses,
 * where the server looks for them (the document cache): a server started next finds a document
 * rendered from its very inputs and serves it at once, with no worker and no 503 while one renders.
 * It is the server's own rendering path (the snapshot builder, the insights renderer and its worker),
 * run once, so the inputs hash the same as they will in the server. Run by `import` after it wrote, and
 * only where no insights document is stored at all (a first import): with one stored, a server starts
 * with it at once anyway, and servers already running render the change themselves (replicas share the
 * rendering through the same store: an import that rendered it too would do their work twice).
 */
export async function primeInsights(
  handle: DatabaseHandle,
  config: Pick<Config, 'BASE_URL' | 'INSIGHTS_TAXONOMY_FILE'>,
  onError: (error: unknown) => void,
): Promise<PrimeOutcome> {
  const documentStore = createDocumentCacheStore(handle.db);
  if (await documentStore.read('insights.json')) return 'left';
  const taxonomies = await loadTaxonomyFile(config.INSIGHTS_TAXONOMY_FILE);
  // Read when the renderer first renders, by which time the cache is open.
  let documents: DocumentCache | undefined;
  const insights = createInsightsRenderer({
    taxonomies,
    known: () => documents?.known('insights.json'),
    analyses: createAnalysisCacheStore(handle.db),
    onCacheError: onError,
  });
  try {
    documents = await openDocumentCache(documentStore, [insights], { onError, attempts: 1 });
    const builder = createSnapshotBuilder({
      store: createReviewStore(handle.db),
      urls: createServiceUrls(config.BASE_URL),
      renderers: [datasetRenderer, insights],
      onError,
    });
    const build = await builder.build(null);
    for (const landed of await Promise.all(build.slow)) documents.persist(landed);
    // The reviews' public JSON the build computed is stored too: the server's first build reads it back.
    await builder.settled();
    await builder.close();
    await documents.close();
    return insights.runs().unchanged > 0 ? 'unchanged' : 'stored';
  } finally {
    await insights.close();
  }
}

/**
 * `import`'s last step: primes the insights of the data it wrote, and says so in one line. A failure
 * costs only the next start's speed (the server renders them itself): it is reported, never fatal.
 */
export async function primeAfterImport(io: CliIo, handle: DatabaseHandle, databaseUrl: string | undefined): Promise<string | null> {
  const failures: unknown[] = [];
  try {
    const config = loadConfig(io.env, { 'database-url': databaseUrl });
    const outcome = await primeInsights(handle, config, (e) => failures.push(e));
    if (failures.length === 0)
      return outcome === 'stored' ? 'insights computed and stored: the server serves them from its first start' : null;
  } catch (e) {
    failures.push(e);
  }
  const reason = failures[0] instanceof Error ? failures[0].message : String(failures[0]);
  return `could not store the insights (${reason}): the server computes them at its first start`;
}
