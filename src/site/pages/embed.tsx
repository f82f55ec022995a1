import type { ServiceUrls } from '../../domain/urls.js';
import { RatingSummary } from '../components/rating-summary.js';
import { ReviewCard } from '../components/review-card.js';
import { plural } from '../format.js';
import type { SiteContext } from '../site-context.js';

export const EMBED_DEFAULT = 3;
export const EMBED_MAX = 10;

/**
 * GET /embed: the widget as a page for an <iframe>, on sites that allow no scripts. It shows the
 * newest reviews whatever their rating, and says how many of how many it shows (FTC 16 CFR 465.7: no
 * suppression of reviews by rating): there is deliberately no parameter to filter them.
 */
export function EmbedPage({ ctx, limit, urls }: { ctx: SiteContext; limit: number; urls: ServiceUrls }) {
  const { business, aggregate, reviews } = ctx.view;
  const shown = reviews.slice(0, limit);
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <base target="_blank" />
        <title>{`Reviews of ${business.name}`}</title>
        <link rel="stylesheet" href={`${urls.base}/assets/site.css`} />
        <link rel="icon" type="image/svg+xml" href={`${urls.base}/favicon.svg`} />
      </head>
      <body class="embed">
        <main>
          <h1 class="embed-title">
            <a href={`${urls.base}/`} target="_blank" rel="noopener">
              {business.name}
            </a>
          </h1>
          <RatingSummary aggregate={aggregate} id="embed-stars" />
          <p class="muted embed-count">
            Showing the {shown.length} newest of {plural(aggregate.review_count, 'verified review')}
          </p>
          {ctx.notice.demo ? (
            <p class="notice-inline">
              <strong>Demo:</strong> an invented business with made-up reviews.
            </p>
          ) : null}
          {shown.map((r) => (
            <ReviewCard key={r.id} review={r} urls={urls} businessName={business.name} />
          ))}
          <p class="more">
            <a href={`${urls.base}/reviews`} target="_blank" rel="noopener">
              Read all {plural(aggregate.review_count, 'review')}
            </a>
          </p>
        </main>
      </body>
    </html>
  );
}
