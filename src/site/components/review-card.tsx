import type { Review } from '../../domain/review.js';
import { isSampleReviewId } from '../../domain/sample.js';
import type { ServiceUrls } from '../../domain/urls.js';
import { formatDate, platformName } from '../format.js';
import { Stars } from './stars.js';

interface Props {
  review: Review;
  urls: ServiceUrls;
  businessName: string;
  /** The heading level of the review's title in the page outline. */
  level?: 2 | 3;
  /** Links the title to the review's own page (not on that page itself). */
  link?: boolean;
}

/** The title a review shows: its own, or one made from the rating for rating-only reviews. */
export function reviewHeading(review: Review): string {
  const title = review.title?.trim();
  return title ? title : `${review.rating}-star review from ${review.author.name.trim() || 'a customer'}`;
}

/** One review, its text kept as written (line breaks shown by CSS), and the owner's reply. */
export function ReviewCard({ review, urls, businessName, level = 3, link = true }: Props) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const heading = reviewHeading(review);
  const mentions = [
    ...review.mentions.technicians.map((m) => ({ ...m, href: `${urls.base}/technicians/${encodeURIComponent(m.id)}` })),
    ...review.mentions.services.map((m) => ({ ...m, href: `${urls.base}/services/${encodeURIComponent(m.id)}` })),
    ...review.mentions.service_areas.map((m) => ({ ...m, href: `${urls.base}/areas/${encodeURIComponent(m.id)}` })),
  ];
  return (
    <article class="review" lang={review.language ?? undefined}>
      <Heading class="review-title">{link ? <a href={urls.reviewPage(review.id)}>{heading}</a> : heading}</Heading>
      <p class="review-meta">
        <Stars rating={review.rating} />
        <span class="review-author">{review.author.name.trim() || 'A customer'}</span>
        {review.author.location ? <span class="muted">{review.author.location}</span> : null}
        <time dateTime={review.date}>{formatDate(review.date)}</time>
        <span class="muted">on {platformName(review.source.platform)}</span>
        {isSampleReviewId(review.id) ? (
          <span class="badge" title="An invented review from the project's example spreadsheet">
            sample
          </span>
        ) : null}
      </p>
      {review.text.trim() === '' ? (
        <p class="review-text muted">Rated {review.rating} out of 5, without a written review.</p>
      ) : (
        <p class="review-text">{review.text}</p>
      )}
      {mentions.length > 0 ? (
        <ul class="chips" aria-label="Mentioned">
          {mentions.map((m) => (
            <li key={m.href}>
              <a href={m.href}>{m.name}</a>
            </li>
          ))}
        </ul>
      ) : null}
      {review.response && review.response.text.trim() !== '' ? (
        <div class="reply">
          <p class="reply-head">
            Reply from {businessName}
            {review.response.date ? (
              <>
                {' · '}
                <time dateTime={review.response.date}>{formatDate(review.response.date)}</time>
              </>
            ) : null}
          </p>
          <p class="review-text">{review.response.text}</p>
        </div>
      ) : null}
    </article>
  );
}
