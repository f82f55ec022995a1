import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../src/domain/business.js';
import type { Business } from '../src/domain/business.js';
import { ImportReviewSchema } from '../src/domain/import-record.js';
import { ASPECT_SENTENCES } from './demo/aspect-sentences.js';
import { AREA_SENTENCES, CLOSERS, GENERIC_TECH, OFFICE_INTROS, ONE_LINERS, TECH_INTROS, TITLES } from './demo/phrases.js';
import { SERVICE_STORIES } from './demo/service-stories.js';
import { DATASET_URL, FIRST_DATE, generateDemo, LAST_DATE, planDemo, renderDataset } from './generate-demo.js';

const { business, reviews } = generateDemo();
const share = (n: number): number => n / reviews.length;

/** Catalog mentions the way contract §2 defines them: whole word or phrase, case-insensitive, Unicode-aware. */
function matcher(entries: Business['technicians' | 'services' | 'service_areas']): (text: string) => string[] {
  const patterns = entries.map((e) => {
    const words = [e.name, ...e.aliases].map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    return { id: e.id, re: new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.join('|')})(?![\\p{L}\\p{N}_])`, 'iu') };
  });
  return (text) => patterns.filter((p) => p.re.test(text)).map((p) => p.id);
}

describe('generateDemo', () => {
  it('is deterministic', () => {
    expect(generateDemo()).toEqual(generateDemo());
    expect(generateDemo(1)).not.toEqual(generateDemo());
  });

  it('matches the committed examples/demo/dataset.json byte for byte', () => {
    // If this fails, run `npx tsx scripts/generate-demo.ts` and commit the result.
    expect(readFileSync(DATASET_URL, 'utf8')).toBe(renderDataset(generateDemo()));
  });

  it('produces a valid business and valid import records', () => {
    expect(BusinessSchema.parse(business)).toEqual(business);
    for (const review of reviews) {
      const result = ImportReviewSchema.safeParse(review);
      expect(result.error?.issues ?? [], review.id).toEqual([]);
    }
    expect(business.technicians).toHaveLength(8);
    expect(business.services).toHaveLength(12);
    expect(business.service_areas).toHaveLength(10);
    expect(business.technicians.some((t) => /\P{ASCII}/u.test(t.name))).toBe(true);
  });

  it('has stable, unique, readable ids in date order', () => {
    const ids = reviews.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [i, r] of reviews.entries()) expect(r.id).toBe(`rev-${String(i + 1).padStart(4, '0')}`);
    const dates = reviews.map((r) => r.date);
    expect(dates).toEqual([...dates].sort());
  });

  it('spreads about 600 reviews over four years, busier lately, with same-day clusters', () => {
    expect(reviews.length).toBeGreaterThanOrEqual(550);
    expect(reviews.length).toBeLessThanOrEqual(650);
    expect((reviews[0]?.date ?? '') >= FIRST_DATE).toBe(true);
    expect((reviews.at(-1)?.date ?? '') <= LAST_DATE).toBe(true);
    const perYear = [2022, 2023, 2024, 2025].map((y) => reviews.filter((r) => r.date >= `${y}-11-01` && r.date <= `${y + 1}-10-31`).length);
    expect(perYear.reduce((a, b) => a + b)).toBe(reviews.length);
    for (let i = 1; i < perYear.length; i++) expect(perYear[i]).toBeGreaterThan(perYear[i - 1] ?? 0);
    const perDay = new Map<string, number>();
    for (const r of reviews) perDay.set(r.date, (perDay.get(r.date) ?? 0) + 1);
    expect([...perDay.values()].filter((n) => n >= 3).length).toBeGreaterThanOrEqual(5);
  });

  it('has a realistic rating mix', () => {
    const count = (rating: number): number => reviews.filter((r) => r.rating === rating).length;
    const ranges: Record<number, [number, number]> = { 5: [0.65, 0.75], 4: [0.1, 0.16], 3: [0.03, 0.07], 2: [0.02, 0.06], 1: [0.06, 0.1] };
    for (const [rating, [lo, hi]] of Object.entries(ranges)) {
      expect(share(count(Number(rating))), `rating ${rating}`).toBeGreaterThanOrEqual(lo);
      expect(share(count(Number(rating))), `rating ${rating}`).toBeLessThanOrEqual(hi);
    }
  });

  it('has a few unpublished records, some rating-only reviews and some titles', () => {
    const unverified = reviews.filter((r) => r.verified === false).length;
    const hidden = reviews.filter((r) => r.hidden === true).length;
    expect(unverified).toBeGreaterThanOrEqual(4);
    expect(unverified).toBeLessThanOrEqual(8);
    expect(hidden).toBeGreaterThanOrEqual(2);
    expect(hidden).toBeLessThanOrEqual(6);
    expect(reviews.every((r) => typeof r.verified === 'boolean')).toBe(true);
    const empty = reviews.filter((r) => r.text === '');
    expect(empty.length).toBeGreaterThanOrEqual(3);
    expect(empty.length).toBeLessThanOrEqual(25);
    expect(empty.every((r) => r.title === null)).toBe(true);
    const titled = share(reviews.filter((r) => r.title !== null).length);
    expect(titled).toBeGreaterThan(0.05);
    expect(titled).toBeLessThan(0.3);
  });

  it('replies to about 30% of reviews, more often to low ratings, never before the review', () => {
    const replied = reviews.filter((r) => r.response);
    expect(share(replied.length)).toBeGreaterThanOrEqual(0.25);
    expect(share(replied.length)).toBeLessThanOrEqual(0.38);
    const rate = (pred: (rating: number) => boolean): number => {
      const group = reviews.filter((r) => pred(r.rating));
      return group.filter((r) => r.response).length / group.length;
    };
    expect(rate((x) => x <= 2)).toBeGreaterThan(rate((x) => x === 5) * 2);
    for (const r of replied) {
      const date = r.response?.date ?? '';
      expect(date >= r.date && date <= LAST_DATE, r.id).toBe(true);
      expect(r.updated_at?.slice(0, 10), r.id).toBe(date);
    }
    for (const r of reviews.filter((x) => !x.response)) expect(r.updated_at?.slice(0, 10), r.id).toBe(r.date);
  });

  it('writes no catalog name into a template except through its placeholders', () => {
    const all = [matcher(business.technicians), matcher(business.services), matcher(business.service_areas)];
    const found = (text: string): string[] => all.flatMap((m) => m(text));
    const templates = [
      ...Object.values(ASPECT_SENTENCES).flatMap((a) => [...a.positive, ...a.negative, ...a.mixed]),
      ...[TECH_INTROS, OFFICE_INTROS, AREA_SENTENCES, CLOSERS].flatMap((t) => Object.values(t).flat()),
      ...Object.values(ONE_LINERS).flat(),
      ...Object.values(TITLES).flat(),
      ...GENERIC_TECH,
    ];
    for (const t of templates) expect(found(t), t).toEqual([]);
    for (const service of business.services) {
      const story = SERVICE_STORIES[service.id];
      expect(story, service.id).toBeDefined();
      for (const opener of story?.openers ?? []) expect(found(opener), opener).toEqual([service.id]);
      for (const id of found(story?.it ?? '')) expect(id, `${service.id}: ${story?.it}`).toBe(service.id);
    }
  });

  it('mentions exactly the technicians, services and areas it meant to, at the intended rates', () => {
    const { planned } = planDemo();
    const technicians = matcher(business.technicians);
    const services = matcher(business.services);
    const areas = matcher(business.service_areas);
    for (const { review, plan } of planned) {
      const text = `${review.title ?? ''}\n${review.text ?? ''}`;
      expect(technicians(text), `${review.id}: ${text}`).toEqual(plan.technician ? [plan.technician.id] : []);
      expect(services(text), `${review.id}: ${text}`).toEqual(plan.service ? [plan.service.id] : []);
      expect(areas(text), `${review.id}: ${text}`).toEqual(plan.area ? [plan.area.id] : []);
    }
    const rateOf = (pick: (p: (typeof planned)[number]['plan']) => unknown): number =>
      share(planned.filter((p) => pick(p.plan) !== null).length);
    expect(rateOf((p) => p.technician)).toBeGreaterThanOrEqual(0.5);
    expect(rateOf((p) => p.technician)).toBeLessThanOrEqual(0.7);
    expect(rateOf((p) => p.service)).toBeGreaterThanOrEqual(0.6);
    expect(rateOf((p) => p.service)).toBeLessThanOrEqual(0.8);
    expect(rateOf((p) => p.area)).toBeGreaterThanOrEqual(0.22);
    expect(rateOf((p) => p.area)).toBeLessThanOrEqual(0.38);
  });
});
