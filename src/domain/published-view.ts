import { computeAggregate, type AggregateRating } from './aggregate.js';
import type { Business } from './business.js';
import type { Review } from './review.js';
import { sampleReviewCount } from './sample.js';
import type { ServiceUrls } from './urls.js';

/**
 * What every renderer reads: the published data of one snapshot. Immutable; built once per data
 * change (style.md: store → snapshot → renderers → transports).
 */
export interface PublishedView {
  business: Business;
  /** Published reviews only, newest first: date desc, then updated_at desc, then id asc (contract §4). */
  reviews: readonly Review[];
  aggregate: AggregateRating;
  /** The newest change the data reflects (RFC 3339 UTC): the newest updated_at of business or reviews. */
  updatedAt: string;
  urls: ServiceUrls;
  /**
   * How many of `reviews` are samples (sample.ts): what the pages' banner and the feeds' title and
   * description say, counted once per view.
   */
  sampleReviews: number;
}

/** A view of these reviews, with what is computed from them: the aggregate and the sample count. */
export function publishedView(parts: Omit<PublishedView, 'aggregate' | 'sampleReviews'>): PublishedView {
  return { ...parts, aggregate: computeAggregate(parts.reviews), sampleReviews: sampleReviewCount(parts.reviews) };
}
