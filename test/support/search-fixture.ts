import fc from 'fast-check';
import { BusinessSchema } from '../../src/domain/business.js';
import type { DatasetState } from '../../src/domain/ports.js';
import type { StoredReview } from '../../src/domain/review.js';
import { SORTS, type SearchParams } from '../../src/domain/search-params.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { buildSnapshot, type Snapshot } from '../../src/snapshot/snapshot.js';
import { review as storedFixture } from '../storage/fixtures.js';

/**
 * Small snapshots and search parameters for the properties that hold REST's and MCP's search answers
 * to each other (src/snapshot/queries.test.ts, test/mcp/search-answer.test.ts): texts and titles with
 * characters JSON escapes or encodes in more than one byte, some reviews with an owner's response.
 */
const business = BusinessSchema.parse({ id: 'b', name: 'B', technicians: [{ id: 'ann', name: 'Ann Lee', aliases: ['Ann'] }] });
// The store suite's record, varied by position: dated, rated and titled by day, some with a response.
const review = (id: string, day: number, rating: number, text: string): StoredReview => ({
  ...storedFixture(id, {
    date: `2024-05-${String(day).padStart(2, '0')}`,
    rating,
    title: day % 2 === 0 ? 'Été "quoted"' : null,
    text,
    author: { name: 'X.', location: null },
    response: day % 3 === 0 ? { text: 'Thanks\nagain', date: '2024-06-01' } : null,
  }),
  updated_at: `2024-06-${String(day).padStart(2, '0')}T00:00:00Z`,
});
const TEXTS = ['Ann was great, café au lait 😀', 'Late and rude.', 'Fair price \u2028 <b>', 'Ann fixed the drain \\ "fast"'];
const state = (texts: string[]): DatasetState => ({
  business,
  businessUpdatedAt: '2024-05-01T00:00:00Z',
  reviews: texts.map((text, i) => review(`r${i}`, (i % 28) + 1, (i % 5) + 1, text)),
  version: 1,
});
const urls = createServiceUrls('http://example.test');

/** A snapshot of one review per text, dated, rated and titled by its position. */
export const searchSnapshotOf = async (texts: string[]): Promise<Snapshot> => (await buildSnapshot(state(texts), urls, [])).snapshot;

export const searchParamsArb: fc.Arbitrary<SearchParams> = fc.record(
  {
    min_rating: fc.constantFrom(1, 2.5, 4),
    query: fc.constantFrom('ann', 'ÉTÉ', 'late', 'zzz'),
    mentions_technician: fc.constantFrom('ann', 'nobody'),
    limit: fc.integer({ min: 1, max: 5 }),
    sort: fc.constantFrom(...SORTS),
  },
  { requiredKeys: [] },
);

export const searchTextsArb = fc.array(fc.constantFrom(...TEXTS), { minLength: 1, maxLength: 30 });
