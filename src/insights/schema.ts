import { z } from 'zod';

/** Polarity counts of one aspect or entity over published reviews (insights.md "Shape"). */
const PolarityCountsShape = {
  mentions: z.int().min(0).describe('Published reviews that mention it; = positive + neutral + negative.'),
  positive: z.int().min(0),
  neutral: z.int().min(0),
  negative: z.int().min(0),
  score: z.number().min(-1).max(1).describe('(positive - negative) / mentions; 0 when there are no mentions.'),
};

export const PolaritySchema = z.enum(['positive', 'neutral', 'negative']);
export type Polarity = z.infer<typeof PolaritySchema>;

export const TrendWindowSchema = z.object({
  ...PolarityCountsShape,
  from: z.string().nullable().describe('First day of the window (YYYY-MM-DD), null when open-ended.'),
  to: z.string().nullable(),
});

export const HighlightSchema = z.object({
  review_id: z.string(),
  quote: z.string().describe('An exact substring of the review text.'),
  polarity: PolaritySchema,
});

export const AspectInsightSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    ...PolarityCountsShape,
    trend: z.object({ recent: TrendWindowSchema, previous: TrendWindowSchema }),
    highlights: z.array(HighlightSchema),
  })
  .meta({ id: 'AspectInsight' });
export type AspectInsight = z.infer<typeof AspectInsightSchema>;

export const SentimentSchema = z.object({
  positive: z.int().min(0),
  neutral: z.int().min(0),
  negative: z.int().min(0),
  score: z.number().min(-1).max(1),
});

export const EntityInsightSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mentions: z.int().min(0),
    average_rating: z.number().nullable().describe('Mean star rating of the reviews that mention it.'),
    sentiment: SentimentSchema,
    top_aspects: z.array(z.string()),
    review_ids: z.array(z.string()),
  })
  .meta({ id: 'EntityInsight' });
export type EntityInsight = z.infer<typeof EntityInsightSchema>;

/** A person named as staff in reviews but absent from the catalog: for the operator to add or ignore. */
export const StaffCandidateSchema = z.object({
  name: z.string(),
  mentions: z.int().min(1),
  review_ids: z.array(z.string()),
  evidence: z.array(z.string()).describe('Exact substrings of reviews that name the person as staff.'),
});

export const EntitiesSectionSchema = z
  .object({
    technicians: z.array(EntityInsightSchema),
    services: z.array(EntityInsightSchema),
    service_areas: z.array(EntityInsightSchema),
    staff_candidates: z.array(StaffCandidateSchema),
  })
  .meta({ id: 'InsightsEntities' });
export type EntitiesSection = z.infer<typeof EntitiesSectionSchema>;

export const TopicSchema = z
  .object({
    phrase: z.string(),
    mentions: z.int().min(1),
    score: z.number().min(-1).max(1),
    review_ids: z.array(z.string()),
  })
  .meta({ id: 'InsightsTopic' });
export type Topic = z.infer<typeof TopicSchema>;

export const FaqEntrySchema = z
  .object({
    question: z.string(),
    answer: z.string(),
    evidence: z.object({ review_count: z.int().min(0), review_ids: z.array(z.string()) }),
  })
  .meta({ id: 'InsightsFaqEntry' });
export type FaqEntry = z.infer<typeof FaqEntrySchema>;

export const SummarySchema = z
  .object({
    headline: z.string(),
    text: z.string(),
    strengths: z.array(z.string()),
    weaknesses: z.array(z.string()),
    period: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  })
  .meta({ id: 'InsightsSummary' });
export type Summary = z.infer<typeof SummarySchema>;

export const AspectsSectionSchema = z.array(AspectInsightSchema);
export const TopicsSectionSchema = z.array(TopicSchema);
export const FaqSectionSchema = z.array(FaqEntrySchema);

export const InsightsDocumentSchema = z
  .object({
    generated_at: z.string().describe('The updatedAt of the published data it was computed from.'),
    review_count: z.int().min(0),
    method: z.object({ engine: z.string(), version: z.string(), taxonomy: z.string() }),
    aspects: AspectsSectionSchema,
    entities: EntitiesSectionSchema,
    topics: TopicsSectionSchema,
    faq: FaqSectionSchema,
    summary: SummarySchema,
  })
  .meta({ id: 'Insights' });
export type InsightsDocument = z.infer<typeof InsightsDocumentSchema>;

/** The sections MCP `get_insights` can return on their own (contract §5). */
export const InsightsSectionNameSchema = z.enum(['aspects', 'entities', 'topics', 'faq', 'summary']);
export type InsightsSectionName = z.infer<typeof InsightsSectionNameSchema>;

/** @internal exported for tests as well */
export const InsightsSectionSchemas = {
  aspects: AspectsSectionSchema,
  entities: EntitiesSectionSchema,
  topics: TopicsSectionSchema,
  faq: FaqSectionSchema,
  summary: SummarySchema,
} as const;
