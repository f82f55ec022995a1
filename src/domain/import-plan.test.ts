import { describe, expect, it } from 'vitest';
import { planImport, reviewContentHash, type ExistingRow, type IncomingReview } from './import-plan.js';

function review(id: string, extra: Partial<IncomingReview> = {}): IncomingReview {
  return {
    id,
    date: '2024-01-01',
    rating: 5,
    title: null,
    text: 'Great',
    language: 'en',
    author: { name: 'A.', location: null },
    source: { platform: 'google', url: null },
    verified: true,
    hidden: false,
    mention_tags: { technicians: [], services: [], service_areas: [] },
    response: null,
    ...extra,
  };
}
const NOW = '2026-01-01T00:00:00.000Z';

describe('planImport (contract §3)', () => {
  it('adds, updates, keeps unchanged records and their updated_at', () => {
    const existing = new Map<string, ExistingRow>([
      ['same', { content_hash: reviewContentHash(review('same')), updated_at: '2020-01-01T00:00:00Z' }],
      ['changed', { content_hash: reviewContentHash(review('changed')), updated_at: '2020-01-01T00:00:00Z' }],
    ]);
    const plan = planImport(
      existing,
      [review('same', { updated_at: '2025-05-05T00:00:00Z' }), review('changed', { rating: 1 }), review('new')],
      false,
      NOW,
    );
    expect(plan.summary).toEqual({ added: 1, updated: 1, unchanged: 1, deleted: 0, unpublished: 0 });
    expect(plan.writes.map((w) => [w.review.id, w.review.updated_at])).toEqual([
      ['changed', NOW],
      ['new', NOW],
    ]);
  });
  it('keeps a given updated_at for new records and a newer given one for changed records', () => {
    const existing = new Map([['c', { content_hash: 'old', updated_at: '2020-01-01T00:00:00Z' }]]);
    const plan = planImport(
      existing,
      [review('n', { updated_at: '2021-01-01T00:00:00Z' }), review('c', { updated_at: '2022-01-01T00:00:00Z' })],
      false,
      NOW,
    );
    expect(plan.writes.map((w) => w.review.updated_at)).toEqual(['2021-01-01T00:00:00Z', '2022-01-01T00:00:00Z']);
  });
  it('deletes the rest only with replace, and counts unpublished records', () => {
    const existing = new Map([['gone', { content_hash: 'x', updated_at: NOW }]]);
    const incoming = [review('h', { hidden: true }), review('u', { verified: false })];
    expect(planImport(existing, incoming, false, NOW).deletes).toEqual([]);
    const plan = planImport(existing, incoming, true, NOW);
    expect(plan.deletes).toEqual(['gone']);
    expect(plan.summary.unpublished).toBe(2);
  });
  it("removes stored sample reviews when the business's own reviews arrive, and keeps them otherwise", () => {
    const existing = new Map([
      ['sample-1', { content_hash: 'x', updated_at: NOW }],
      ['sample-2', { content_hash: 'x', updated_at: NOW }],
      ['own', { content_hash: 'x', updated_at: NOW }],
    ]);
    const own = planImport(existing, [review('g-1')], false, NOW);
    expect(own.deletes.sort()).toEqual(['sample-1', 'sample-2']);
    expect(own.summary).toMatchObject({ added: 1, deleted: 0, sample_removed: 2 });
    // The sample imported again (or another sample) leaves the samples where they are.
    const again = planImport(existing, [review('sample-1', { rating: 4 })], false, NOW);
    expect(again.deletes).toEqual([]);
    expect(again.summary.sample_removed).toBeUndefined();
    // With --replace the samples count as removed samples, the rest as deleted.
    const replaced = planImport(existing, [review('g-1')], true, NOW);
    expect(replaced.summary).toMatchObject({ deleted: 1, sample_removed: 2 });
  });
  it('hashes content regardless of key order and without updated_at', () => {
    const a = review('x');
    const b = { ...Object.fromEntries(Object.entries(a).reverse()), updated_at: NOW } as IncomingReview;
    expect(reviewContentHash(b)).toBe(reviewContentHash(a));
    expect(reviewContentHash(review('x', { text: 'Great!' }))).not.toBe(reviewContentHash(a));
  });
});
