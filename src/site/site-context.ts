import type { PublishedView } from '../domain/published-view.js';
import type { InsightsDocument } from '../insights/schema.js';
import { insightsValue } from '../snapshot/insights-value.js';
import type { Snapshot } from '../snapshot/snapshot.js';

/** What every page reads: one snapshot's published view and its insights (the latest that landed). */
export interface SiteContext {
  snapshot: Snapshot;
  view: PublishedView;
  insights: InsightsDocument | null;
  /** False while the snapshot has no insights at all (a cold start, or a failed first render): such pages are not cached. */
  complete: boolean;
}

/**
 * The context of one snapshot. Every published snapshot holds its documents (the previous insights
 * until new ones land), so nothing waits here; the route waits only at a cold start (completeSnapshot).
 */
export function siteContext(snapshot: Snapshot): SiteContext {
  const insights = insightsValue(snapshot) ?? null;
  return { snapshot, view: snapshot.view, insights, complete: insights !== null };
}
