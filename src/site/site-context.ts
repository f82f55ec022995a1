import type { PublishedView } from '../domain/published-view.js';
import type { InsightsDocument } from '../insights/schema.js';
import { insightsValue } from '../snapshot/insights-value.js';
import { memoValue } from '../snapshot/snapshot-memo.js';
import { siteNotice, type SiteNotice } from './notice.js';
import type { Snapshot } from '../snapshot/snapshot.js';

/** What every page reads: one snapshot's published view and its insights (the latest that landed). */
export interface SiteContext {
  snapshot: Snapshot;
  view: PublishedView;
  insights: InsightsDocument | null;
  /** False while the snapshot has no insights at all (a cold start, or a failed first render): such pages are not cached. */
  complete: boolean;
  /** What the pages say about invented data (the demo, sample reviews). */
  notice: SiteNotice;
}

const NOTICE = memoValue<SiteNotice>('site notice', { readsDocuments: false });

/**
 * The context of one snapshot. Every published snapshot holds its documents (the previous insights
 * until new ones land), so nothing waits here; the route waits only at a cold start (completeSnapshot).
 */
export function siteContext(snapshot: Snapshot): SiteContext {
  const insights = insightsValue(snapshot) ?? null;
  const notice = snapshot.memo.value(NOTICE, () => siteNotice(snapshot.view));
  return { snapshot, view: snapshot.view, insights, complete: insights !== null, notice };
}
