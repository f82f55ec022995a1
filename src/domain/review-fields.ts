import { z } from 'zod';
import { ReviewSchema } from './review.js';

/** The names of a published review's fields, in the order a review carries them. */
export const REVIEW_FIELDS = Object.keys(ReviewSchema.shape) as [keyof typeof ReviewSchema.shape, ...(keyof typeof ReviewSchema.shape)[]];

const fieldMsg = { error: () => `fields must list review field names: ${REVIEW_FIELDS.join(', ')}` };

/**
 * MCP `fields` (contract §5, answers sized for a context window): the review fields to return, so an
 * assistant that needs only ids and ratings does not pay for every text.
 */
export const ReviewFieldsSchema = z
  .array(z.enum(REVIEW_FIELDS, fieldMsg), fieldMsg)
  .min(1, fieldMsg)
  .max(REVIEW_FIELDS.length, fieldMsg)
  .optional()
  .describe(
    `Return only these review fields (for example ["id","date","rating","text"]); omit for whole reviews. One of: ${REVIEW_FIELDS.join(', ')}.`,
  );

/** A review's JSON with only `fields`, in the review's own field order. */
export function projectReviewJson(json: string, fields: ReadonlySet<string>): string {
  const review = JSON.parse(json) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(review)) if (fields.has(key)) out[key] = review[key];
  return JSON.stringify(out);
}
