import type { InsightsDocument, InsightsSectionName } from './schema.js';

/** One section of the document as MCP get_insights returns it: `{ <section>: ... }` (contract §5). */
export function pickInsightsSection<S extends InsightsSectionName>(doc: InsightsDocument, section: S): Pick<InsightsDocument, S> {
  return { [section]: doc[section] } as Pick<InsightsDocument, S>;
}
