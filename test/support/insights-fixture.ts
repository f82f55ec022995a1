import { BusinessSchema, type Business } from '../../src/domain/business.js';
import type { Review } from '../../src/domain/review.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { publishedView, type PublishedView } from '../../src/domain/published-view.js';

export const fixtureBusiness: Business = BusinessSchema.parse({
  id: 'acme-plumbing',
  name: 'Acme Plumbing & Air',
  technicians: [
    { id: 'mike', name: 'Mike Torres', aliases: ['Mike'] },
    { id: 'jose', name: 'José Ramírez', aliases: ['Jose'] },
    { id: 'dave', name: 'Dave Lin', aliases: ['Dave'] },
  ],
  services: [
    { id: 'water-heater', name: 'Water heater repair', aliases: ['water heater', 'tankless'] },
    { id: 'ac-repair', name: 'AC repair', aliases: ['AC', 'air conditioning'] },
    { id: 'drain', name: 'Drain cleaning', aliases: ['drain', 'clog'] },
  ],
  service_areas: [
    { id: 'round-rock', name: 'Round Rock' },
    { id: 'austin', name: 'Austin' },
    { id: 'pflugerville', name: 'Pflugerville' },
  ],
});

type Seed = [id: string, date: string, rating: number, text: string];

const SEEDS: Seed[] = [
  ['r01', '2026-11-01', 5, 'Mike showed up right on time and had our AC blowing cold again in about an hour. Great price too.'],
  [
    'r02',
    '2026-10-20',
    1,
    "The tech showed up 2 hours late and didn't even call. Quoted us $300 for the repair and then charged $650 when he was done.",
  ],
  ['r03', '2026-10-02', 5, 'Jose was super friendly and explained exactly what was wrong with the water heater. Fair price, no upsell.'],
  ['r04', '2026-09-15', 4, 'Great work on the panel upgrade, but the office never called back about the permit inspection.'],
  [
    'r05',
    '2026-08-30',
    5,
    'Dave diagnosed the problem in five minutes. He put on shoe covers and cleaned up everything. We live in Round Rock.',
  ],
  ['r06', '2026-08-01', 5, 'Same day service on a Sunday for our clogged drain in Austin. Mike was on time and very professional.'],
  ['r07', '2026-07-12', 2, 'They left sawdust all over the garage floor and the toilet was running again a week later.'],
  ['r08', '2026-06-10', 5, 'Our tech Brandon was awesome and really knew his stuff about tankless heaters.'],
  ['r09', '2026-05-05', 4, 'A little pricey but the install was flawless. Jose kept us updated by text the whole time.'],
  ['r10', '2026-04-01', 5, 'Highly recommend! Mike fixed our water heater the same afternoon and the price was fair.'],
  ['r11', '2026-03-03', 3, ''],
  ['r12', '2026-02-14', 5, 'Honest people, they talked me out of a more expensive repair. On time, polite, and clean.'],
];

export function fixtureReview([id, date, rating, text]: Seed, overrides: Partial<Review> = {}): Review {
  const lower = text.toLowerCase();
  const pick = (entries: ReadonlyArray<{ id: string; name: string; aliases: string[] }>) =>
    entries
      .filter((e) => [e.name, ...e.aliases].some((n) => new RegExp(`(?<![\\p{L}])${n.toLowerCase()}(?![\\p{L}])`, 'u').test(lower)))
      .map((e) => ({ id: e.id, name: e.name }));
  return {
    id,
    date,
    rating,
    title: null,
    text,
    language: 'en',
    author: { name: 'A. Customer', location: null },
    source: { platform: 'google', url: null },
    verified: true,
    mentions: {
      technicians: pick(fixtureBusiness.technicians),
      services: pick(fixtureBusiness.services),
      service_areas: pick(fixtureBusiness.service_areas),
    },
    response: null,
    updated_at: `${date}T12:00:00Z`,
    ...overrides,
  };
}

export const fixtureReviews: Review[] = SEEDS.map((s) => fixtureReview(s));

export function fixtureView(reviews: readonly Review[] = fixtureReviews, business: Business = fixtureBusiness): PublishedView {
  const updatedAt =
    reviews
      .map((r) => r.updated_at)
      .sort()
      .at(-1) ?? '2026-01-01T00:00:00Z';
  return publishedView({ business, reviews, updatedAt, urls: createServiceUrls('https://reviews.example.com') });
}
