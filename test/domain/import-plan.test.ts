import { DeletionGuardError } from '../../src/domain/deletion-guard.js';
import { describe, expect, it } from 'vitest';
import { planImport, reviewContentHash, type ExistingRow, type IncomingReview } from '../../src/domain/import-plan.js';

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
      ['same', { content_hash: reviewContentHash(review('same')), updated_at: '2020-01-01T00:00:00Z', platform: 'website' }],
      ['changed', { content_hash: reviewContentHash(review('changed')), updated_at: '2020-01-01T00:00:00Z', platform: 'website' }],
    ]);
    const plan = planImport(
      existing,
      [review('same', { updated_at: '2025-05-05T00:00:00Z' }), review('changed', { rating: 1 }), review('new')],
      'upsert',
      NOW,
    );
    expect(plan.summary).toEqual({ added: 1, updated: 1, unchanged: 1, deleted: 0, unpublished: 0 });
    expect(plan.writes.map((w) => [w.review.id, w.review.updated_at])).toEqual([
      ['changed', NOW],
      ['new', NOW],
    ]);
  });
  it('keeps a given updated_at for new records and a newer given one for changed records', () => {
    const existing = new Map([['c', { content_hash: 'old', updated_at: '2020-01-01T00:00:00Z', platform: null }]]);
    const plan = planImport(
      existing,
      [review('n', { updated_at: '2021-01-01T00:00:00Z' }), review('c', { updated_at: '2022-01-01T00:00:00Z' })],
      'upsert',
      NOW,
    );
    expect(plan.writes.map((w) => w.review.updated_at)).toEqual(['2021-01-01T00:00:00Z', '2022-01-01T00:00:00Z']);
  });
  it('deletes the rest only with replace, and counts unpublished records', () => {
    const existing = new Map([['gone', { content_hash: 'x', updated_at: NOW, platform: null }]]);
    const incoming = [review('h', { hidden: true }), review('u', { verified: false })];
    expect(planImport(existing, incoming, 'upsert', NOW).deletes).toEqual([]);
    const plan = planImport(existing, incoming, 'replace', NOW);
    expect(plan.deletes).toEqual(['gone']);
    expect(plan.summary.unpublished).toBe(2);
  });
  it('a platform listing deletes only that platform’s unlisted reviews (contract §3.2)', () => {
    const row = (platform: string) => ({ content_hash: 'x', updated_at: NOW, platform });
    const existing = new Map<string, ExistingRow>([...Array(10).keys()].map((i) => [`g${i}`, row('google')]));
    existing.set('w1', row('website'));
    const listed = [...Array(9).keys()].map((i) => review(`g${i}`));
    const plan = planImport(existing, listed, { platform: 'google', allowDeletions: false }, NOW);
    expect(plan.deletes).toEqual(['g9']);
    expect(plan.summary.deleted).toBe(1);
  });
  it('the deletion guard refuses more than 20 % and more than 5 of a platform’s reviews, unless allowed', () => {
    const existing = new Map(
      [...Array(40).keys()].map((i) => [`g${i}`, { content_hash: 'x', updated_at: NOW, platform: 'google' }] as const),
    );
    const keep = (n: number) => [...Array(n).keys()].map((i) => review(`g${i}`));
    const google = (allowDeletions: boolean) => ({ platform: 'google', allowDeletions });
    // 8 of 40 is 20 %: not more than a fifth, so applied.
    expect(planImport(existing, keep(32), google(false), NOW).deletes).toHaveLength(8);
    expect(() => planImport(existing, keep(31), google(false), NOW)).toThrow(DeletionGuardError);
    expect(() => planImport(existing, [], google(false), NOW)).toThrow(/would delete 40 of the 40 stored google reviews/);
    expect(planImport(existing, [], google(true), NOW).deletes).toHaveLength(40);
    // Five or fewer are always applied, whatever their share.
    const small = new Map([...existing].slice(0, 6));
    expect(planImport(small, keep(1), google(false), NOW).deletes).toHaveLength(5);
    expect(() => planImport(small, [], google(false), NOW)).toThrow(DeletionGuardError);
  });
  it("removes stored sample reviews when the business's own reviews arrive, and keeps them otherwise", () => {
    const existing = new Map([
      ['sample-1', { content_hash: 'x', updated_at: NOW, platform: 'website' }],
      ['sample-2', { content_hash: 'x', updated_at: NOW, platform: 'website' }],
      ['own', { content_hash: 'x', updated_at: NOW, platform: 'google' }],
    ]);
    const own = planImport(existing, [review('g-1')], 'upsert', NOW);
    expect(own.deletes.sort()).toEqual(['sample-1', 'sample-2']);
    expect(own.summary).toMatchObject({ added: 1, deleted: 0, sample_removed: 2 });
    // The sample imported again (or another sample) leaves the samples where they are.
    const again = planImport(existing, [review('sample-1', { rating: 4 })], 'upsert', NOW);
    expect(again.deletes).toEqual([]);
    expect(again.summary.sample_removed).toBeUndefined();
    // With --replace the samples count as removed samples, the rest as deleted.
    const replaced = planImport(existing, [review('g-1')], 'replace', NOW);
    expect(replaced.summary).toMatchObject({ deleted: 1, sample_removed: 2 });
  });
  it('hashes content regardless of key order and without updated_at', () => {
    const a = review('x');
    const b = { ...Object.fromEntries(Object.entries(a).reverse()), updated_at: NOW } as IncomingReview;
    expect(reviewContentHash(b)).toBe(reviewContentHash(a));
    expect(reviewContentHash(review('x', { text: 'Great!' }))).not.toBe(reviewContentHash(a));
  });
});
