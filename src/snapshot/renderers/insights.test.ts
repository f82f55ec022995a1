import { afterAll, describe, expect, it } from 'vitest';
import { BusinessSchema } from '../../domain/business.js';
import { createServiceUrls } from '../../domain/urls.js';
import { buildSnapshot, renderSnapshot, withDocument } from '../snapshot.js';
import type { SlowRenderer } from './document-renderer.js';
import { createInsightsRenderer } from './insights.js';

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

  it('renders the same in a worker thread as inline', async () => {
    const [a, b] = await Promise.all([renderSnapshot(state, urls, [inWorker]), renderSnapshot(state, urls, [inline])]);
    const [da, db] = [a.documents.get('insights.json'), b.documents.get('insights.json')];
    expect(da?.body.toString()).toBe(db?.body.toString());
    expect(da?.etag).toBe(db?.etag);
    const doc = JSON.parse(da!.body.toString()) as { review_count: number; generated_at: string };
    expect(doc.review_count).toBe(2);
    expect(a.values.get('insights.json')).toEqual(doc);
    expect(a.missing.size).toBe(0);
  });
});

describe('slow documents', () => {
  const slow = (body: string, gate: Promise<void>): SlowRenderer => ({
    kind: 'slow',
    name: 'slow.json',
    contentType: 'application/json',
    render: ({ view }) => gate.then(() => ({ body, lastModified: view.updatedAt })),
  });

  it('a new snapshot carries the previous document until its own lands; nothing older replaces it', async () => {
    const first = await renderSnapshot(state, urls, [slow('"v1"', Promise.resolve())]);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { snapshot: second, slow: landing } = await buildSnapshot({ ...state, version: 2 }, urls, [slow('"v2"', gate)], first);
    // Published at once, complete, with the previous rendering.
    expect(second.documents.get('slow.json')?.body.toString()).toBe('"v1"');
    expect(second.documentVersions.get('slow.json')).toBe(1);
    expect(second.missing.size).toBe(0);
    open();
    const landed = await landing[0]!;
    const third = withDocument(second, landed);
    expect(third.documents.get('slow.json')?.body.toString()).toBe('"v2"');
    expect(third.documentVersions.get('slow.json')).toBe(2);
    expect(withDocument(third, { ...landed, version: 1 })).toBe(third);
  });

  it('a cold start has the document missing until it lands', async () => {
    const { snapshot } = await buildSnapshot(state, urls, [slow('"x"', new Promise<void>(() => {}))]);
    expect(snapshot.documents.has('slow.json')).toBe(false);
    expect([...snapshot.missing]).toEqual(['slow.json']);
  });
});
