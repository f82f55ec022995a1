import { z } from 'zod';
import { AggregateRatingSchema } from './aggregate.js';
import { BusinessSchema } from './business.js';
import { TimestampSchema } from './dates.js';
import { ReviewSchema } from './review.js';

export const DatasetLinksSchema = z.object({
  self: z.string(),
  insights: z.string(),
  feed_json: z.string(),
  feed_xml: z.string(),
  search: z.string(),
  since: z.string(),
  openapi: z.string(),
  mcp: z.string(),
  hub: z.string(),
});

/** GET /reviews.json (contract §4); `export` writes the same shape. */
export const DatasetDocumentSchema = z
  .object({
    business: BusinessSchema,
    aggregate_rating: AggregateRatingSchema,
    reviews: z.array(ReviewSchema).describe('Published reviews, newest first.'),
    updated_at: TimestampSchema.describe('The last change of the published data.'),
    links: DatasetLinksSchema,
  })
  .meta({ id: 'ReviewsDataset' });
export type DatasetDocument = z.infer<typeof DatasetDocumentSchema>;
