import { AspectChart, RatingDistribution } from '../components/charts.js';
import { BusinessFacts } from '../components/business-facts.js';
import { RatingSummary } from '../components/rating-summary.js';
import { ReviewCard } from '../components/review-card.js';
import { plural } from '../format.js';
import { Layout } from '../layout.js';
import type { SiteContext } from '../site-context.js';
import { businessJsonLd, JSON_LD_REVIEWS } from '../structured-data.js';

export const HOME_REVIEWS = 6;

/** GET /: the business's page (contract §7). */
export function HomePage({ ctx }: { ctx: SiteContext }) {
  const { business, aggregate, reviews, urls } = ctx.view;
  const summary = ctx.insights?.summary;
  const faq = ctx.insights?.faq ?? [];
  // The lists name aspects as the reader knows them (their labels), never by id.
  const labels = new Map((ctx.insights?.aspects ?? []).map((a) => [a.id, a.label]));
  const newest = reviews.slice(0, Math.max(HOME_REVIEWS, JSON_LD_REVIEWS));
  return (
    <Layout
      urls={urls}
      businessName={business.name}
      notice={ctx.notice}
      title={`${business.name}: customer reviews`}
      description={`${business.name}: ${aggregate.rating_value} out of 5 from ${plural(aggregate.review_count, 'verified review')}.${business.description ? ` ${business.description}` : ''}`}
      canonical={`${urls.base}/`}
      json={{ href: urls.reviewsJson, title: 'Reviews dataset (JSON)' }}
      jsonLd={businessJsonLd(business, aggregate, newest, urls)}
    >
      <section class="hero" aria-labelledby="page-title">
        <h1 id="page-title">{business.name}</h1>
        {business.description ? <p class="lead">{business.description}</p> : null}
        <RatingSummary aggregate={aggregate} id="home-stars" />
        {summary ? <p class="headline">{summary.headline}</p> : null}
      </section>
      <div class="columns">
        <div class="primary">
          <section aria-labelledby="ratings-title" class="card">
            <h2 id="ratings-title">Ratings at a glance</h2>
            <RatingDistribution aggregate={aggregate} />
            {ctx.insights ? <AspectChart aspects={ctx.insights.aspects} /> : null}
          </section>
          {summary ? (
            <section aria-labelledby="summary-title" class="card">
              <h2 id="summary-title">What customers say</h2>
              <p>{summary.text}</p>
              {summary.strengths.length || summary.weaknesses.length ? (
                <div class="two-up">
                  {summary.strengths.length ? (
                    <div>
                      <h3>Praised for</h3>
                      <ul>
                        {summary.strengths.map((s) => (
                          <li key={s}>{labels.get(s) ?? s}</li>
                        ))}
                      </ul>
                    </div>
                  ) : null}
                  {summary.weaknesses.length ? (
                    <div>
                      <h3>Criticised for</h3>
                      <ul>
                        {summary.weaknesses.map((s) => (
                          <li key={s}>{labels.get(s) ?? s}</li>
                        ))}
                      </ul>
                    </div>
                  ) : null}
                </div>
              ) : null}
            </section>
          ) : null}
          {faq.length ? (
            <section aria-labelledby="faq-title" class="card">
              <h2 id="faq-title">Questions customers ask</h2>
              {faq.map((f) => (
                <details key={f.question}>
                  <summary>{f.question}</summary>
                  <p>
                    {f.answer} <span class="muted">(from {plural(f.evidence.review_count, 'review')})</span>
                  </p>
                </details>
              ))}
            </section>
          ) : null}
          <section aria-labelledby="newest-title">
            <h2 id="newest-title">Newest reviews</h2>
            {reviews.slice(0, HOME_REVIEWS).map((r) => (
              <ReviewCard key={r.id} review={r} urls={urls} businessName={business.name} />
            ))}
            <p class="more">
              <a class="button" href={`${urls.base}/reviews`}>
                Read all {plural(aggregate.review_count, 'review')}
              </a>
            </p>
          </section>
        </div>
        <BusinessFacts business={business} urls={urls} />
      </div>
      <section aria-labelledby="dev-title" class="card developers">
        <h2 id="dev-title">For developers and AI assistants</h2>
        <p>
          These reviews are open data, free to read with no key. Follow the <a href={urls.feedXml}>Atom feed</a> or the{' '}
          <a href={urls.feedJson}>JSON Feed</a>, read <a href={urls.reviewsJson}>reviews.json</a> and{' '}
          <a href={urls.insightsJson}>insights.json</a>, search through the <a href={`${urls.base}/docs`}>REST API</a>, or connect an
          assistant to the MCP endpoint <a href={urls.mcp}>{urls.mcp}</a>. To show these reviews on your own site, see the{' '}
          <a href={`${urls.base}/embed`}>embeddable widget</a>.
        </p>
      </section>
    </Layout>
  );
}
