import { BusinessSchema, type Business } from '../../src/domain/business.js';
import type { IncomingReview } from '../../src/domain/import-plan.js';

/** Records for the store contract suite: small, valid, and easy to vary one field at a time. */

export function business(overrides: Partial<Business> = {}): Business {
  return BusinessSchema.parse({ id: 'acme', name: 'Acme Plumbing', url: 'https://acme.example.com/', ...overrides });
}

export function review(id: string, overrides: Partial<IncomingReview> = {}): IncomingReview {
  return {
    id,
    date: '2025-03-14',
    rating: 5,
    title: null,
    text: `Review ${id}: great work.`,
    language: 'en',
    author: { name: 'Jane D.', location: null },
    source: { platform: 'google', url: null },
    response: null,
    verified: true,
    hidden: false,
    mention_tags: { technicians: [], services: [], service_areas: [] },
    ...overrides,
  };
}

export function reviews(count: number, prefix = 'r'): IncomingReview[] {
  return Array.from({ length: count }, (_, i) =>
    review(`${prefix}${String(i).padStart(6, '0')}`, {
      rating: (i % 5) + 1,
      date: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    }),
  );
}

/** A clock the test moves by hand, so `updated_at` values are exact. */
export function manualClock(start = '2026-01-01T00:00:00.000Z') {
  let t = Date.parse(start);
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
    iso: () => new Date(t).toISOString(),
  };
}
