import { z } from 'zod';

/** Aggregate rating over published reviews (contract §2). */
export const AggregateRatingSchema = z
  .object({
    rating_value: z.number().describe('Mean star rating, rounded to 2 decimals; 0 when there are no reviews.'),
    review_count: z.int().min(0),
    best_rating: z.literal(5),
    worst_rating: z.literal(1),
    distribution: z.object({ '1': z.int(), '2': z.int(), '3': z.int(), '4': z.int(), '5': z.int() }),
  })
  .meta({ id: 'AggregateRating' });
export type AggregateRating = z.infer<typeof AggregateRatingSchema>;

export function computeAggregate(reviews: readonly { rating: number }[]): AggregateRating {
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  let sum = 0;
  for (const r of reviews) {
    const key = String(r.rating) as keyof typeof distribution;
    distribution[key] += 1;
    sum += r.rating;
  }
  const mean = reviews.length === 0 ? 0 : sum / reviews.length;
  return {
    rating_value: Math.round(mean * 100) / 100,
    review_count: reviews.length,
    best_rating: 5,
    worst_rating: 1,
    distribution,
  };
}
