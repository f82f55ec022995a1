import { describe, expect, it } from 'vitest';
import { fixtureReview, fixtureReviews, fixtureView } from '../support/insights-fixture.js';
import { createInsightsEngine } from '../../src/insights/engine.js';
import { InsightsDocumentSchema, InsightsSectionSchemas, type InsightsDocument } from '../../src/insights/schema.js';
import { pickInsightsSection } from '../../src/insights/sections.js';

function allQuotes(doc: InsightsDocument): Array<{ review_id: string; quote: string }> {
  return [
    ...doc.aspects.flatMap((a) => a.highlights),
    ...doc.entities.staff_candidates.flatMap((c) => c.evidence.map((quote) => ({ review_id: c.review_ids[0] ?? '', quote }))),
  ];
}

describe('insights document', () => {
  const engine = createInsightsEngine();
  const view = fixtureView();
  const doc = engine.compute(view);

  it('validates against the schema and is stamped with the view, not the clock', () => {
    expect(() => InsightsDocumentSchema.parse(doc)).not.toThrow();
    expect(doc.generated_at).toBe(view.updatedAt);
    expect(doc.review_count).toBe(fixtureReviews.length);
    expect(doc.method.taxonomy).toBe('home-services');
  });

  it('gives each section on its own, valid against its section schema (MCP get_insights)', () => {
    for (const section of ['aspects', 'entities', 'topics', 'faq', 'summary'] as const) {
      const picked = pickInsightsSection(doc, section);
      expect(Object.keys(picked)).toEqual([section]);
      expect(() => InsightsSectionSchemas[section].parse(picked[section])).not.toThrow();
    }
  });

  it('is deterministic: the same view gives a deep-equal document, from a warm or a cold engine', () => {
    expect(engine.compute(view)).toEqual(doc);
    expect(createInsightsEngine().compute(view)).toEqual(doc);
  });

  it('quotes only exact substrings of the review they cite', () => {
    const byId = new Map(fixtureReviews.map((r) => [r.id, r]));
    const quotes = allQuotes(doc);
    expect(quotes.length).toBeGreaterThan(0);
    for (const q of quotes) expect(byId.get(q.review_id)?.text).toContain(q.quote);
  });

  it('has counts that add up', () => {
    for (const a of doc.aspects) {
      expect(a.positive + a.neutral + a.negative).toBe(a.mentions);
      expect(a.trend.recent.mentions + a.trend.previous.mentions).toBe(a.mentions);
      expect(a.mentions).toBeLessThanOrEqual(doc.review_count);
    }
    for (const kind of ['technicians', 'services', 'service_areas'] as const) {
      for (const e of doc.entities[kind]) {
        expect(e.sentiment.positive + e.sentiment.neutral + e.sentiment.negative).toBe(e.mentions);
        expect(e.review_ids).toHaveLength(e.mentions);
      }
    }
    for (const f of doc.faq) expect(f.evidence.review_ids).toHaveLength(f.evidence.review_count);
  });

  it('finds the aspects, entities and staff candidates of the fixture', () => {
    const punctuality = doc.aspects.find((a) => a.id === 'punctuality');
    expect(punctuality?.positive).toBeGreaterThanOrEqual(2);
    expect(punctuality?.negative).toBeGreaterThanOrEqual(1);
    const mike = doc.entities.technicians.find((t) => t.id === 'mike');
    expect(mike?.mentions).toBe(3);
    expect(mike?.sentiment.positive).toBe(3);
    expect(doc.entities.staff_candidates.map((c) => c.name)).toContain('Brandon');
    expect(doc.entities.staff_candidates.map((c) => c.name)).not.toContain('Mike');
  });

  it('never calls a mostly negative aspect a strength', () => {
    for (const id of doc.summary.strengths) {
      const a = doc.aspects.find((x) => x.id === id);
      expect(a && a.positive > a.negative).toBe(true);
    }
    for (const id of doc.summary.weaknesses) expect(doc.summary.strengths).not.toContain(id);
  });

  it('contains nothing from reviews that are not in the view (unpublished)', () => {
    const secret = fixtureReview(['hidden-1', '2026-11-10', 1, 'Technician Zed was rude and the price was a rip off.']);
    const withSecret = engine.compute(fixtureView([secret, ...fixtureReviews]));
    expect(JSON.stringify(withSecret)).toContain('hidden-1');
    const after = engine.compute(fixtureView(fixtureReviews));
    expect(JSON.stringify(after)).not.toContain('hidden-1');
    expect(JSON.stringify(after)).not.toContain('Zed');
    expect(after).toEqual(doc);
  });

  it('says there is not enough data for an empty view, and still validates', () => {
    const empty = createInsightsEngine().compute(fixtureView([]));
    expect(() => InsightsDocumentSchema.parse(empty)).not.toThrow();
    expect(empty.review_count).toBe(0);
    expect(empty.summary.headline).toMatch(/not enough reviews yet/i);
    expect(empty.faq.every((f) => /not enough reviews yet|no review/i.test(f.answer))).toBe(true);
  });

  it('says "not enough reviews yet" when the evidence is thin', () => {
    const thin = createInsightsEngine().compute(fixtureView(fixtureReviews.slice(0, 2)));
    expect(thin.summary.headline).toMatch(/not enough reviews yet/i);
    const onTime = thin.faq.find((f) => f.question === 'Are they on time?');
    expect(onTime?.answer).toMatch(/not enough reviews yet/i);
  });

  it('reflects an edited review on recompute (cache keyed by id and updated_at)', () => {
    const edited = fixtureReviews.map((r) =>
      r.id === 'r02' ? { ...r, text: 'Right on time and the price matched the quote.', rating: 5, updated_at: '2026-11-20T00:00:00Z' } : r,
    );
    const next = engine.compute(fixtureView(edited));
    const price = next.aspects.find((a) => a.id === 'price');
    const before = doc.aspects.find((a) => a.id === 'price');
    expect(price?.negative).toBe((before?.negative ?? 0) - 1);
    expect(createInsightsEngine().compute(fixtureView(edited))).toEqual(next);
  });
});
