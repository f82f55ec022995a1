import type { AggregateRating } from '../../domain/aggregate.js';
import { formatRating, plural } from '../format.js';
import { StarMeter } from './stars.js';

/** The average rating, large, with its stars and the number of reviews behind it. */
export function RatingSummary({ aggregate, id }: { aggregate: AggregateRating; id: string }) {
  const value = formatRating(aggregate.rating_value);
  return (
    <p class="rating-summary">
      <span class="rating-value">{value}</span>
      <span class="rating-detail">
        <StarMeter value={aggregate.rating_value} id={id} label={`Average rating ${value} out of 5`} />
        <span>out of 5 from {plural(aggregate.review_count, 'verified review')}</span>
      </span>
    </p>
  );
}
