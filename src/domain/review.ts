import { z } from 'zod';
import { CatalogIdSchema } from './business.js';
import { DateSchema, TimestampSchema } from './dates.js';

export const ReviewIdSchema = z.string().min(1).max(200);

export const MentionRefSchema = z.object({ id: CatalogIdSchema, name: z.string() });
export type MentionRef = z.infer<typeof MentionRefSchema>;

/** Resolved catalog mentions of a review (contract §2). */
export const MentionsSchema = z.object({
  technicians: z.array(MentionRefSchema),
  services: z.array(MentionRefSchema),
  service_areas: z.array(MentionRefSchema),
});
export type Mentions = z.infer<typeof MentionsSchema>;

/** Catalog ids an import record tags itself with (contract §3). */
export const MentionTagsSchema = z.object({
  technicians: z.array(CatalogIdSchema).default([]),
  services: z.array(CatalogIdSchema).default([]),
  service_areas: z.array(CatalogIdSchema).default([]),
});
export type MentionTags = z.infer<typeof MentionTagsSchema>;

export const AuthorSchema = z.object({
  name: z.string(),
  location: z.string().nullable(),
});

export const SourceSchema = z.object({
  platform: z.string().min(1),
  url: z.string().nullable(),
});

export const OwnerResponseSchema = z.object({
  text: z.string(),
  date: DateSchema.nullable(),
});

/** A review as published (contract §2): every field present, null where unknown. */
export const ReviewSchema = z
  .object({
    id: ReviewIdSchema,
    date: DateSchema,
    rating: z.int().min(1).max(5),
    title: z.string().nullable(),
    text: z.string(),
    language: z.string().nullable(),
    author: AuthorSchema,
    source: SourceSchema,
    verified: z.literal(true),
    mentions: MentionsSchema,
    response: OwnerResponseSchema.nullable(),
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Review' });
export type Review = z.infer<typeof ReviewSchema>;

/**
 * A review as stored: the publishable content plus the flags that decide whether it is published and
 * the mention tags given at import. Mentions found in the text are derived per snapshot, never stored.
 */
export const StoredReviewSchema = ReviewSchema.omit({ verified: true, mentions: true }).extend({
  verified: z.boolean(),
  hidden: z.boolean(),
  mention_tags: MentionTagsSchema,
});
export type StoredReview = z.infer<typeof StoredReviewSchema>;

/** Only verified, non-hidden reviews are ever served, counted or analysed (contract §2). */
export function isPublished(r: Pick<StoredReview, 'verified' | 'hidden'>): boolean {
  return r.verified && !r.hidden;
}
