/** The insights engine (insights.md): pure, no I/O. */
export {
  InsightsDocumentSchema,
  InsightsSectionNameSchema,
  InsightsSectionSchemas,
  AspectsSectionSchema,
  AspectInsightSchema,
  EntitiesSectionSchema,
  EntityInsightSchema,
  TopicsSectionSchema,
  TopicSchema,
  FaqSectionSchema,
  FaqEntrySchema,
  SummarySchema,
} from './schema.js';
export type {
  InsightsDocument,
  InsightsSectionName,
  AspectInsight,
  EntityInsight,
  EntitiesSection,
  Topic,
  FaqEntry,
  Summary,
  Polarity,
} from './schema.js';
export { createInsightsEngine, ENGINE_NAME, ENGINE_VERSION } from './engine.js';
export { pickInsightsSection } from './sections.js';
export type { InsightsEngine, InsightsEngineOptions } from './engine.js';
export { TaxonomySchema, parseTaxonomy } from './taxonomy.js';
export type { Taxonomy, TaxonomyInput } from './taxonomy.js';
export { builtinTaxonomies, DEFAULT_TAXONOMY_ID } from './taxonomies/index.js';
export { createTaxonomyRegistry } from './registry.js';
