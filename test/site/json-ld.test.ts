import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review } from '../../src/domain/review.js';
import { schemaOrgTypes } from '../../src/site/business-type.js';
import { BASE_URL, createTestApp, json, request, type TestApp } from '../http/app-harness.js';
import { jsonLd } from './site-harness.js';

interface Dataset {
  business: { name: string; telephone: string; opening_hours: string[]; geo: { latitude: number; longitude: number } };
  aggregate_rating: { rating_value: number; review_count: number };
  reviews: Review[];
}

describe('schema.org JSON-LD (contract §7)', () => {
  let t: TestApp;
  let dataset: Dataset;
  beforeAll(async () => {
    t = await createTestApp();
    dataset = json<Dataset>(await request(t.app, '/reviews.json'));
  });
  afterAll(() => t.app.close());

  it('describes the business on / with the numbers of /reviews.json', async () => {
    const [node] = jsonLd((await request(t.app, '/')).body);
    expect(node!['@context']).toBe('https://schema.org');
    expect(node!['@type']).toEqual(['Plumber', 'HVACBusiness']);
    expect(node!.name).toBe(dataset.business.name);
    expect(node!.telephone).toBe(dataset.business.telephone);
    expect(node!.openingHours).toEqual(dataset.business.opening_hours);
    expect(node!.geo).toMatchObject(dataset.business.geo);
    expect(node!.address).toMatchObject({ '@type': 'PostalAddress', streetAddress: '1 Main St', addressCountry: 'US' });
    expect(node!.aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: dataset.aggregate_rating.rating_value,
      reviewCount: dataset.aggregate_rating.review_count,
      bestRating: 5,
      worstRating: 1,
    });
  });

  it('lists the newest reviews as Review nodes equal to the published records', async () => {
    const [node] = jsonLd((await request(t.app, '/')).body);
    const reviews = node!.review as Record<string, unknown>[];
    expect(reviews.length).toBe(10);
    reviews.forEach((r, i) => {
      const rec = dataset.reviews[i]!;
      expect(r).toMatchObject({
        '@type': 'Review',
        reviewRating: { ratingValue: rec.rating },
        author: { name: rec.author.name },
        datePublished: rec.date,
        reviewBody: rec.text,
      });
    });
  });

  it('gives each review page its Review with itemReviewed', async () => {
    for (const rec of dataset.reviews.slice(0, 5)) {
      const [node] = jsonLd((await request(t.app, `/reviews/${rec.id}`)).body);
      expect(node).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'Review',
        reviewBody: rec.text,
        datePublished: rec.date,
        reviewRating: { ratingValue: rec.rating },
        itemReviewed: { '@id': `${BASE_URL}/#business`, name: dataset.business.name },
      });
    }
  });
});

describe('schemaOrgTypes', () => {
  it('picks the most specific LocalBusiness subtypes the categories allow, in their order', () => {
    expect(schemaOrgTypes(['HVAC contractor', 'Plumber', 'Air conditioning repair service'])).toEqual(['HVACBusiness', 'Plumber']);
    expect(schemaOrgTypes(['Electrician'])).toEqual(['Electrician']);
    expect(schemaOrgTypes(['Emergency drain service'])).toEqual(['Plumber']);
    expect(schemaOrgTypes(['Bakery'])).toEqual(['LocalBusiness']);
    expect(schemaOrgTypes([])).toEqual(['LocalBusiness']);
  });
});
