import fs from 'node:fs/promises';
import { ConfigError, type Config } from './config.js';
import { toIssues } from './domain/errors.js';
import { z } from 'zod';
import { ATOM_MEDIA_TYPE, renderAtomFeed } from './feeds/atom.js';
import { feedReviews } from './feeds/feed-content.js';
import { JsonFeedSchema } from './feeds/json-feed-schema.js';
import { JSON_FEED_MEDIA_TYPE, renderJsonFeed } from './feeds/json-feed.js';
import type { DocumentSchemas } from './http/routes/datasets.js';
// Not the insights barrel: it loads the NLP engine, which only the insights worker runs.
import { InsightsDocumentSchema } from './insights/schema.js';
import { parseTaxonomy, type Taxonomy } from './insights/taxonomy.js';
import { createInsightsRenderer } from './snapshot/insights-renderer.js';
import type { PublishedView } from './domain/published-view.js';
import type { DocumentRenderer } from './snapshot/snapshot.js';

export interface Renderers {
  list: DocumentRenderer[];
  schemas: Partial<DocumentSchemas>;
  close(): Promise<void>;
}

/** Last-Modified of a feed: the newest updated_at among its entries (contract §4). */
function feedLastModified(view: PublishedView): string {
  const stamps = feedReviews(view).map((r) => r.updated_at);
  if (stamps.length === 0) return view.updatedAt;
  return stamps.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

/** A custom taxonomy file (INSIGHTS_TAXONOMY_FILE): read once at start-up, rejected loudly if invalid. */
async function loadTaxonomies(file: string | undefined): Promise<Taxonomy[]> {
  if (!file) return [];
  let json: unknown;
  try {
    json = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`INSIGHTS_TAXONOMY_FILE ${file}: ${(e as Error).message}`, { cause: e });
  }
  const list = Array.isArray(json) ? json : [json];
  return list.map((t, i) => {
    try {
      return parseTaxonomy(t);
    } catch (e) {
      const detail =
        e instanceof z.ZodError
          ? toIssues(e)
              .map((issue) => `  ${issue.message}`)
              .join('\n')
          : (e as Error).message;
      throw new ConfigError(`INSIGHTS_TAXONOMY_FILE ${file}: taxonomy ${i + 1} is invalid:\n${detail}`, { cause: e });
    }
  });
}

/** The documents every snapshot renders besides reviews.json: insights and the two feeds. */
export async function createDocumentRenderers(
  config: Pick<Config, 'INSIGHTS_TAXONOMY_FILE'>,
  options: { worker: boolean } = { worker: false },
): Promise<Renderers> {
  // One engine per process (in a worker thread for the server): it caches each review's analysis,
  // so a rebuild only analyses what changed.
  const insights = createInsightsRenderer({ taxonomies: await loadTaxonomies(config.INSIGHTS_TAXONOMY_FILE), worker: options.worker });
  const jsonFeed: DocumentRenderer = {
    name: 'feed.json',
    contentType: JSON_FEED_MEDIA_TYPE,
    render: (view) => ({ body: renderJsonFeed(view), lastModified: feedLastModified(view) }),
  };
  const atom: DocumentRenderer = {
    name: 'feed.xml',
    contentType: ATOM_MEDIA_TYPE,
    render: (view) => ({ body: renderAtomFeed(view), lastModified: feedLastModified(view) }),
  };
  return {
    list: [insights, jsonFeed, atom],
    schemas: { insights: InsightsDocumentSchema, jsonFeed: JsonFeedSchema },
    close: () => insights.close(),
  };
}
