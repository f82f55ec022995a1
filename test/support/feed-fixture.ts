import { BusinessSchema, type Business } from '../../src/domain/business.js';
import type { Review } from '../../src/domain/review.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { publishedView, type PublishedView } from '../../src/domain/published-view.js';

/** Test data for the feed renderers: hand-written, fixed, so golden files never change by accident. */

export const BASE_URL = 'https://reviews.example.com';

export const FIXTURE_BUSINESS: Business = BusinessSchema.parse({
  id: 'brightline',
  name: 'Brightline Plumbing & Air',
  description: 'Plumbing and HVAC in the river valley.',
  url: 'https://brightline.example.com/',
});

/** Text that tries every way of breaking a feed: markup, entities, CDATA end, CR/LF, a C0 control, emoji. */
export const HOSTILE_TEXT =
  "Tom & Jerry's \"best\" <b>plumber</b>: 5 > 3 & 2 < 4 <script>alert('x')</script> ]]> done.\r\n" +
  'Second line\u0001 with a control char 🚽✨👍\nThird line\rFourth &amp; &nbsp; &#1; &#38; &#x41; end.';
export const HOSTILE_TITLE = 'Fast & "friendly" <em>service</em> isn\'t rare 🙌';

export function makeReview(overrides: Partial<Review> & Pick<Review, 'id' | 'date'>): Review {
  const { id, date, ...rest } = overrides;
  // id and date first: the record's key order is the order the API prints.
  return {
    id,
    date,
    rating: 5,
    title: null,
    text: 'Great work.',
    language: 'en',
    author: { name: 'Jane D.', location: null },
    source: { platform: 'google', url: null },
    verified: true,
    mentions: { technicians: [], services: [], service_areas: [] },
    response: null,
    updated_at: `${date}T12:00:00Z`,
    ...rest,
  };
}

/** Sorted as the snapshot sorts (contract §4): date desc, then updated_at desc, then id asc. */
export function makeView(reviews: Review[], business: Business = FIXTURE_BUSINESS): PublishedView {
  const sorted = [...reviews].sort((a, b) => cmp(b.date, a.date) || cmp(b.updated_at, a.updated_at) || cmp(a.id, b.id));
  const updatedAt = sorted.map((r) => r.updated_at).reduce((a, b) => (b > a ? b : a), '2024-01-01T00:00:00Z');
  return publishedView({ business, reviews: sorted, updatedAt, urls: createServiceUrls(BASE_URL) });
}

/** The small fixed view behind the golden files. */
export function goldenView(): PublishedView {
  return makeView([
    makeReview({
      id: 'rv-0003',
      date: '2024-05-03',
      rating: 5,
      title: 'Fixed our water heater',
      text: 'Mike replaced the water heater in Oak Park.\nOn time and tidy.',
      author: { name: 'Jane D.', location: 'Oak Park' },
      source: { platform: 'google', url: 'https://reviews.example.net/google/rv-0003' },
      mentions: {
        technicians: [{ id: 'tech-mike', name: 'Mike Alvarez' }],
        services: [{ id: 'water-heater', name: 'Water Heater Service' }],
        service_areas: [{ id: 'oak-park', name: 'Oak Park' }],
      },
      response: { text: 'Thanks, Jane! <3', date: '2024-05-04' },
      updated_at: '2024-05-04T09:30:00Z',
    }),
    makeReview({
      id: 'rv-0002',
      date: '2024-04-20',
      rating: 4,
      title: null,
      text: '',
      author: { name: 'Sam K.', location: null },
      source: { platform: 'website', url: null },
      updated_at: '2024-04-20T08:00:00Z',
    }),
    makeReview({
      id: 'rv-0001',
      date: '2024-04-02',
      rating: 2,
      title: HOSTILE_TITLE,
      text: HOSTILE_TEXT,
      language: 'fr',
      author: { name: 'Renée "R" <Dubois>', location: null },
      updated_at: '2024-04-03T10:00:00Z',
    }),
  ]);
}

/** `n` ordinary reviews on distinct days, so the newest-first order is unambiguous. */
export function manyReviews(n: number): Review[] {
  const start = Date.UTC(2023, 0, 1);
  return Array.from({ length: n }, (_, i) => {
    const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    return makeReview({ id: `rv-${String(i).padStart(4, '0')}`, date, rating: (i % 5) + 1, text: `Review number ${i}.` });
  });
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
