import type { AggregateRating } from '../domain/aggregate.js';
import type { Business } from '../domain/business.js';
import type { Review } from '../domain/review.js';
import type { ServiceUrls } from '../domain/urls.js';
import { schemaOrgTypes } from './business-type.js';

/**
 * schema.org JSON-LD (contract §7). Numbers are copied from the same aggregate /reviews.json serves.
 * Search engines show no review stars for reviews a business publishes about itself (Google's
 * "self-serving reviews" rule for LocalBusiness and Organization); the markup is for assistants and
 * other machines that read it, and it must still be true.
 */
const CONTEXT = 'https://schema.org';
/** How many of the newest reviews the business node carries. */
export const JSON_LD_REVIEWS = 10;

export function businessId(urls: ServiceUrls): string {
  return `${urls.base}/#business`;
}

function typeValue(business: Business): string | string[] {
  const types = schemaOrgTypes(business.categories);
  return types.length === 1 ? types[0]! : types;
}

export function reviewNode(review: Review): Record<string, unknown> {
  return {
    '@type': 'Review',
    reviewRating: { '@type': 'Rating', ratingValue: review.rating, bestRating: 5, worstRating: 1 },
    author: { '@type': 'Person', name: review.author.name },
    datePublished: review.date,
    ...(review.title ? { name: review.title } : {}),
    reviewBody: review.text,
    ...(review.language ? { inLanguage: review.language } : {}),
  };
}

export function aggregateNode(aggregate: AggregateRating): Record<string, unknown> {
  return {
    '@type': 'AggregateRating',
    ratingValue: aggregate.rating_value,
    reviewCount: aggregate.review_count,
    bestRating: aggregate.best_rating,
    worstRating: aggregate.worst_rating,
  };
}

/** schema.org PostalAddress without the parts the business left empty. */
function postalAddress(a: NonNullable<Business['address']>): Record<string, unknown> {
  const parts = {
    streetAddress: a.street,
    addressLocality: a.locality,
    addressRegion: a.region,
    postalCode: a.postal_code,
    addressCountry: a.country,
  };
  return { '@type': 'PostalAddress', ...Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== null)) };
}

export function businessJsonLd(
  business: Business,
  aggregate: AggregateRating,
  newest: readonly Review[],
  urls: ServiceUrls,
): Record<string, unknown> {
  const a = business.address;
  return {
    '@context': CONTEXT,
    '@type': typeValue(business),
    '@id': businessId(urls),
    name: business.name,
    ...(business.description ? { description: business.description } : {}),
    ...(business.url ? { url: business.url } : {}),
    ...(business.telephone ? { telephone: business.telephone } : {}),
    ...(business.email ? { email: business.email } : {}),
    ...(a ? { address: postalAddress(a) } : {}),
    ...(business.geo ? { geo: { '@type': 'GeoCoordinates', latitude: business.geo.latitude, longitude: business.geo.longitude } } : {}),
    ...(business.opening_hours.length ? { openingHours: business.opening_hours } : {}),
    ...(business.service_areas.length ? { areaServed: business.service_areas.map((s) => ({ '@type': 'Place', name: s.name })) } : {}),
    ...(business.same_as.length ? { sameAs: business.same_as } : {}),
    ...(aggregate.review_count > 0 ? { aggregateRating: aggregateNode(aggregate) } : {}),
    ...(newest.length ? { review: newest.slice(0, JSON_LD_REVIEWS).map(reviewNode) } : {}),
  };
}

/** One review's page: its Review with the business as itemReviewed. */
export function reviewJsonLd(review: Review, business: Business, urls: ServiceUrls): Record<string, unknown> {
  return {
    '@context': CONTEXT,
    ...reviewNode(review),
    url: urls.reviewPage(review.id),
    itemReviewed: { '@type': typeValue(business), '@id': businessId(urls), name: business.name },
  };
}
