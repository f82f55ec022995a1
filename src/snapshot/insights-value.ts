import type { InsightsDocument } from '../insights/schema.js';
import { memoValue } from './snapshot-memo.js';
import type { Snapshot } from './snapshot.js';

const INSIGHTS = 'insights.json';
// Reads the insights document: a copy of the snapshot with another one parses its own.
const INSIGHTS_VALUE = memoValue<InsightsDocument | undefined>('insights value', { readsDocuments: true });

/**
 * A snapshot's insights document as a value (for the pages and MCP's get_insights), parsed once from its
 * bytes when a reader first asks: at 100k reviews the document is 8 MB, and parsing every
 * rendering (or the stored one at each start) for a reader that may never come cost about 300 ms of
 * CPU and tens of MB of heap. Undefined while the snapshot has none. Kept in the snapshot's memo.
 */
export function insightsValue(snapshot: Snapshot): InsightsDocument | undefined {
  const doc = snapshot.documents.get(INSIGHTS);
  if (!doc) return undefined;
  return snapshot.memo.value(INSIGHTS_VALUE, () => JSON.parse(doc.body.toString('utf8')) as InsightsDocument);
}
