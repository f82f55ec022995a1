import type { Review } from '../../domain/review.js';
import type { EntityInsight } from '../../insights/schema.js';
import { ReviewCard } from '../components/review-card.js';
import { formatRating, percent, plural } from '../format.js';
import { Layout } from '../layout.js';
import type { SiteContext } from '../site-context.js';

export type CatalogKind = 'technicians' | 'services' | 'areas';

export interface CatalogEntry {
  kind: CatalogKind;
  id: string;
  name: string;
  /** A technician's role or a service's description. */
  detail: string | null;
}

const KIND_NOUN: Record<CatalogKind, string> = { technicians: 'Technician', services: 'Service', areas: 'Service area' };
/** The search parameter that lists all of an entry's reviews, where the API has one. */
const SEARCH_PARAM: Partial<Record<CatalogKind, string>> = { technicians: 'mentions_technician', services: 'mentions_service' };
export const CATALOG_REVIEWS = 20;

interface Props {
  ctx: SiteContext;
  entry: CatalogEntry;
  /** Every published review that mentions the entry, newest first. */
  reviews: readonly Review[];
  insight: EntityInsight | null;
}

/** GET /technicians/{id}, /services/{id}, /areas/{id}: one catalog entry and its reviews (contract §7). */
export function CatalogPage({ ctx, entry, reviews, insight }: Props) {
  const { business, urls } = ctx.view;
  const param = SEARCH_PARAM[entry.kind];
  const labels = new Map((ctx.insights?.aspects ?? []).map((a) => [a.id, a.label]));
  const s = insight?.sentiment;
  const sentimentTotal = s ? s.positive + s.neutral + s.negative : 0;
  return (
    <Layout
      urls={urls}
      businessName={business.name}
      notice={ctx.notice}
      title={`${entry.name} · ${KIND_NOUN[entry.kind]} · ${business.name} reviews`}
      description={`What customers of ${business.name} say about ${entry.name}: ${plural(reviews.length, 'review')}.`}
      canonical={`${urls.base}/${entry.kind}/${encodeURIComponent(entry.id)}`}
    >
      <p class="breadcrumbs">
        <a href={`${urls.base}/`}>{business.name}</a> › {KIND_NOUN[entry.kind]}
      </p>
      <h1>{entry.name}</h1>
      {entry.detail ? <p class="lead">{entry.detail}</p> : null}
      <section class="card" aria-labelledby="about-title">
        <h2 id="about-title">What reviews say</h2>
        {insight && insight.mentions > 0 ? (
          <ul class="stats">
            <li>
              <strong>{insight.mentions.toLocaleString('en-US')}</strong> reviews talk about {entry.name}
            </li>
            {insight.average_rating !== null ? (
              <li>
                <strong>{formatRating(insight.average_rating)}</strong> out of 5 on average in those reviews
              </li>
            ) : null}
            {s && sentimentTotal > 0 ? (
              <li>
                <strong>{percent(s.positive, sentimentTotal)}%</strong> positive, {percent(s.negative, sentimentTotal)}% negative
              </li>
            ) : null}
            {insight.top_aspects.length ? (
              <li>Most talked about: {insight.top_aspects.map((a) => labels.get(a) ?? a).join(', ')}</li>
            ) : null}
          </ul>
        ) : (
          <p>{reviews.length ? `${plural(reviews.length, 'review')} mention ${entry.name}.` : `No review mentions ${entry.name} yet.`}</p>
        )}
      </section>
      <section aria-labelledby="list-title">
        <h2 id="list-title">
          {reviews.length > CATALOG_REVIEWS
            ? `The ${CATALOG_REVIEWS} newest of ${plural(reviews.length, 'review')}`
            : plural(reviews.length, 'review')}
        </h2>
        {reviews.slice(0, CATALOG_REVIEWS).map((r) => (
          <ReviewCard key={r.id} review={r} urls={urls} businessName={business.name} />
        ))}
        {param && reviews.length > CATALOG_REVIEWS ? (
          <p class="more">
            <a class="button" href={`${urls.base}/reviews?${param}=${encodeURIComponent(entry.id)}`}>
              All reviews that mention {entry.name}
            </a>
          </p>
        ) : null}
      </section>
    </Layout>
  );
}
