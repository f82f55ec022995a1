import type { Review } from '../../domain/review.js';
import { isAbsoluteHttpUrl } from '../../feeds/feed-content.js';
import { ReviewCard, reviewHeading } from '../components/review-card.js';
import { platformName } from '../format.js';
import { Layout } from '../layout.js';
import type { SiteContext } from '../site-context.js';
import { reviewJsonLd } from '../structured-data.js';

/** GET /reviews/{id}: one review, the target of the feeds' item links (contract §7). */
export function ReviewPage({ ctx, review }: { ctx: SiteContext; review: Review }) {
  const { business, urls } = ctx.view;
  const heading = reviewHeading(review);
  const json = urls.review(review.id);
  return (
    <Layout
      urls={urls}
      businessName={business.name}
      notice={ctx.notice}
      title={`${heading} · ${review.rating}/5 · ${business.name}`}
      description={`A verified ${review.rating}-star review of ${business.name} by ${review.author.name}, ${review.date}.`}
      canonical={urls.reviewPage(review.id)}
      json={{ href: json, title: 'This review as JSON' }}
      jsonLd={reviewJsonLd(review, business, urls)}
    >
      <p class="breadcrumbs">
        <a href={`${urls.base}/`}>{business.name}</a> › <a href={`${urls.base}/reviews`}>Reviews</a>
      </p>
      <h1 class="visually-hidden">Review of {business.name}</h1>
      <ReviewCard review={review} urls={urls} businessName={business.name} level={2} link={false} />
      <p class="muted">
        Machine-readable: <a href={json}>this review as JSON</a>
        {review.source.url && isAbsoluteHttpUrl(review.source.url) ? (
          <>
            {' · '}
            <a href={review.source.url}>the original on {platformName(review.source.platform)}</a>
          </>
        ) : null}
      </p>
    </Layout>
  );
}
