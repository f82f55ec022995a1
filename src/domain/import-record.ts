import { z } from 'zod';
import { CatalogIdSchema } from './business.js';
import { DateSchema, TimestampSchema } from './dates.js';
import { ReviewIdSchema } from './review.js';

/**
 * A mention list in an import record: catalog ids (contract §3), or the `{id, name}` objects that
 * `export` writes, so that an export can be imported again unchanged.
 */
const MentionListSchema = z
  .array(z.union([CatalogIdSchema, z.object({ id: CatalogIdSchema, name: z.string().optional() })]))
  .transform((xs) => xs.map((x) => (typeof x === 'string' ? x : x.id)));

const nullableString = z.string().nullable().optional();

/**
 * Ids become path segments (`/api/reviews/{id}`, `/reviews/{id}`): `.` and `..` would be resolved away
 * by clients and `search` would shadow `/api/reviews/search`, so an import refuses them by name.
 */
const RESERVED_IDS = new Set(['.', '..', 'search']);
export const ImportReviewIdSchema = ReviewIdSchema.refine((id) => !RESERVED_IDS.has(id), {
  message: 'must not be ".", ".." or "search" (reserved: ids are path segments of the review URLs)',
})
  // The id is the one plain text column a review writes: PostgreSQL text cannot hold U+0000, and a lone
  // surrogate has no UTF-8 form (both databases would store U+FFFD) and no URL form (encodeURIComponent).
  .refine((id) => !id.includes('\0'), { message: 'must not contain the NUL character (U+0000)' })
  .refine((id) => !/\p{Cs}/u.test(id), { message: 'must be well-formed Unicode (it holds a lone surrogate)' });

/** A review's link on its platform: only http and https, so no `javascript:` or `file:` URL is published. */
const SourceUrlSchema = z
  .string()
  .refine((s) => /^https?:\/\/[^\s/]/i.test(s) && URL.canParse(s), { message: 'must be an http or https URL' })
  .nullable()
  .optional();

/** One review as an import file gives it (contract §3): optional fields may be absent. */
export const ImportReviewSchema = z.object({
  id: ImportReviewIdSchema,
  date: DateSchema,
  rating: z.int().min(1).max(5),
  title: nullableString,
  text: z.string().default(''),
  language: nullableString,
  author: z.object({ name: z.string().min(1), location: nullableString }),
  source: z.object({ platform: z.string().min(1), url: SourceUrlSchema }).default({ platform: 'website', url: null }),
  verified: z.boolean().optional(),
  hidden: z.boolean().default(false),
  mentions: z
    .object({
      technicians: MentionListSchema.optional(),
      services: MentionListSchema.optional(),
      service_areas: MentionListSchema.optional(),
    })
    .optional(),
  response: z.object({ text: z.string(), date: DateSchema.nullable().optional() }).nullable().optional(),
  updated_at: TimestampSchema.optional(),
});
export type ImportReview = z.infer<typeof ImportReviewSchema>;
