import type { InsightsDocument } from '../insights/schema.js';
import type { RenderedDocument } from './rendered-document.js';
import type { Snapshot } from './snapshot.js';

const INSIGHTS = 'insights.json';
const parsed = new WeakMap<RenderedDocument, InsightsDocument>();

/**
 * A snapshot's insights document as a value (for the pages and MCP's get_insights): the renderer's, or
 * parsed once from the bytes of the document an earlier process stored, which a restart serves before
 * its own rendering lands (issue 15, start-up: at 100k reviews it is 8 MB, and parsing it at every start
 * for a reader that may never come cost about 300 ms). Undefined while the snapshot has none.
 */
export function insightsValue(snapshot: Snapshot): InsightsDocument | undefined {
  const rendered = snapshot.values.get(INSIGHTS) as InsightsDocument | undefined;
  if (rendered) return rendered;
  const doc = snapshot.documents.get(INSIGHTS);
  if (!doc) return undefined;
  let value = parsed.get(doc);
  if (!value) {
    value = JSON.parse(doc.body.toString('utf8')) as InsightsDocument;
    parsed.set(doc, value);
  }
  return value;
}
