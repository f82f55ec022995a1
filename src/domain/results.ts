import { z } from 'zod';
import { DateSchema } from './dates.js';
import { ReviewSchema } from './review.js';
import { SearchFieldsSchema } from './search-params.js';

/** The search answer (contract §4), shared by GET /api/reviews/search and MCP `search_reviews`. */
export const SearchResultSchema = z
  .object({
    reviews: z.array(ReviewSchema),
    count: z.int().min(0).describe('Reviews in this page.'),
    total: z.int().min(0).describe('Reviews matching the filters, over all pages.'),
    limit: z.int().min(1),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
    filters: SearchFieldsSchema.pick({
      rating: true,
      min_rating: true,
      since: true,
      until: true,
      query: true,
      mentions_technician: true,
      mentions_service: true,
    }).describe('The normalized filters that were applied.'),
  })
  .meta({ id: 'SearchResult' });

/** GET /api/reviews/since/{date} (contract §4). */
export const SinceResultSchema = z
  .object({
    since: DateSchema,
    count: z.int().min(0).describe('Reviews returned.'),
    total: z.int().min(0).describe('Reviews matching; equal to count here, smaller than total only in the MCP twin with a limit.'),
    reviews: z.array(ReviewSchema).describe('Every published review dated on or after `since`, newest first.'),
  })
  .meta({ id: 'SinceResult' });

/** GET /api/reviews/{id} and MCP `get_review`. */
export const ReviewResultSchema = z.object({ review: ReviewSchema }).meta({ id: 'ReviewResult' });
