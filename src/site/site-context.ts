import type { InsightsDocument } from '../insights/schema.js';
import type { PublishedView } from '../snapshot/published-view.js';
import { documentOf, RENDER_WAIT_MS, type Snapshot } from '../snapshot/snapshot.js';

/** What every page reads: one snapshot's published view and, once computed, its insights. */
export interface SiteContext {
  snapshot: Snapshot;
  view: PublishedView;
  insights: InsightsDocument | null;
  /** False while the insights are missing (still computing or failed): such pages are not cached. */
  complete: boolean;
}

const INSIGHTS = 'insights.json';

export async function siteContext(snapshot: Snapshot, waitMs = RENDER_WAIT_MS): Promise<SiteContext> {
  const doc = await documentOf(snapshot, INSIGHTS, waitMs);
  const insights = doc ? ((snapshot.values.get(INSIGHTS) as InsightsDocument | undefined) ?? null) : null;
  return { snapshot, view: snapshot.view, insights, complete: insights !== null };
}
