import type { ServiceUrls } from '../../src/domain/urls.js';
import type { InsightsEngine } from '../../src/insights/engine.js';
import type { Taxonomy } from '../../src/insights/taxonomy.js';
import { JSON_MEDIA_TYPE } from '../../src/domain/media-types.js';
import type { DocumentRenderer, SlowRenderer } from '../../src/snapshot/renderers/document-renderer.js';
import { documentRenderersWith, type Renderers } from '../../src/snapshot/renderers/index.js';
import type { DatasetState } from '../../src/domain/ports.js';
import type { MemoBudgets } from '../../src/snapshot/snapshot-memo.js';
import { buildSnapshot, withDocument, type Snapshot } from '../../src/snapshot/snapshot.js';

/**
 * Tests' insights renderer: the engine in the test's own process, loaded on first use, with no worker
 * process to start (seconds from TypeScript sources) and none to end. The server always renders in a
 * worker (src/snapshot/renderers/insights.ts); a test of that path uses the real renderer.
 */
export function createInlineInsightsRenderer(taxonomies: Taxonomy[] = []): SlowRenderer & { close(): Promise<void> } {
  let engine: Promise<InsightsEngine> | null = null;
  return {
    kind: 'slow',
    name: 'insights.json',
    contentType: JSON_MEDIA_TYPE,
    render: async ({ view }) => {
      engine ??= Promise.all([import('../../src/insights/engine.js'), import('../../src/absa-models.js')]).then(([m, models]) =>
        m.createInsightsEngine({ taxonomies, models: models.readShippedModels() }),
      );
      return { body: JSON.stringify((await engine).compute(view)), lastModified: view.updatedAt };
    },
    close: () => Promise.resolve(),
  };
}

/** Every document a snapshot publishes, with the insights computed in the test's process. */
export function testDocumentRenderers(): Renderers {
  return documentRenderersWith(createInlineInsightsRenderer());
}

/**
 * A snapshot with every document rendered: tests can wait for the slow ones. `previous` and `now` are
 * the snapshot it follows and the time it is published at, as the snapshot manager gives them.
 */
export async function renderSnapshot(
  state: DatasetState,
  urls: ServiceUrls,
  renderers: readonly DocumentRenderer[],
  options: { budgets?: MemoBudgets; previous?: Snapshot | null; now?: number } = {},
): Promise<Snapshot> {
  const { snapshot, slow } = await buildSnapshot(
    state,
    urls,
    renderers,
    options.previous ?? null,
    options.now ?? Date.now(),
    new Map(),
    options.budgets,
  );
  let out = snapshot;
  for (const landed of await Promise.all(slow)) out = withDocument(out, landed);
  return out;
}
