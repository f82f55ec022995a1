import { afterAll, describe, expect, it } from 'vitest';
import { BusinessSchema } from '../domain/business.js';
import { createServiceUrls } from '../domain/urls.js';
import { createInsightsRenderer } from './insights-renderer.js';
import { buildSnapshot, documentOf } from './snapshot.js';

const business = BusinessSchema.parse({ id: 'b', name: 'B', technicians: [{ id: 'ann', name: 'Ann Lee', aliases: ['Ann'] }] });
const review = (id: string, rating: number, text: string) => ({
  id,
  date: '2024-05-01',
  rating,
  title: null,
  text,
  language: 'en',
  author: { name: 'X.', location: null },
  source: { platform: 'google', url: null },
  verified: true,
  hidden: false,
  mention_tags: { technicians: [], services: [], service_areas: [] },
  response: null,
  updated_at: '2024-05-02T00:00:00Z',
});
const state = {
  business,
  businessUpdatedAt: '2024-05-01T00:00:00Z',
  reviews: [
    review('a', 5, 'Ann arrived on time and the price was fair.'),
    review('b', 1, 'They showed up 3 hours late and overcharged us.'),
  ],
  version: 1,
};
const urls = createServiceUrls('http://example.test');

describe('insights renderer', () => {
  const inWorker = createInsightsRenderer({ taxonomies: [], worker: true });
  const inline = createInsightsRenderer({ taxonomies: [], worker: false });
  afterAll(() => inWorker.close());

  it('renders after the snapshot is published, the same in a worker thread as inline', async () => {
    const a = buildSnapshot(state, urls, [inWorker]);
    const b = buildSnapshot(state, urls, [inline]);
    expect(a.pending.has('insights.json')).toBe(true);
    const [da, db] = await Promise.all([documentOf(a, 'insights.json', 20_000), documentOf(b, 'insights.json', 20_000)]);
    expect(da?.body.toString()).toBe(db?.body.toString());
    expect(da?.etag).toBe(db?.etag);
    const doc = JSON.parse(da!.body.toString()) as { review_count: number; generated_at: string };
    expect(doc.review_count).toBe(2);
    expect(a.values.get('insights.json')).toEqual(doc);
  });

  it('documentOf gives up after its timeout on a render that never ends', async () => {
    const never = { name: 'slow.json', contentType: 'application/json', renderAsync: () => new Promise<never>(() => {}) };
    const snap = buildSnapshot(state, urls, [never]);
    expect(await documentOf(snap, 'slow.json', 20)).toBeUndefined();
    expect(await documentOf(snap, 'absent.json', 20)).toBeUndefined();
  });
});
