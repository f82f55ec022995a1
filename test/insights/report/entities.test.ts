import { describe, expect, it } from 'vitest';
import { createInsightsEngine } from '../../../src/insights/engine.js';
import { fixtureBusiness, fixtureReview, fixtureView } from '../../support/insights-fixture.js';

const engine = createInsightsEngine();

describe('entity matching', () => {
  it('attributes sentiment from the sentences that name the technician, accents and aliases included', () => {
    const reviews = [
      fixtureReview(['e1', '2026-05-01', 2, 'The office was rude. José Ramírez was great though, very knowledgeable.']),
      fixtureReview(['e2', '2026-04-01', 5, 'jose fixed the drain fast.']),
    ];
    const doc = engine.compute(fixtureView(reviews));
    const jose = doc.entities.technicians.find((t) => t.id === 'jose');
    expect(jose?.mentions).toBe(2);
    expect(jose?.sentiment.positive).toBe(2);
    expect(jose?.average_rating).toBe(3.5);
    expect(jose?.review_ids).toEqual(['e1', 'e2']);
    expect(jose?.top_aspects).toContain('expertise');
  });

  it('reports staff named in reviews but missing from the catalog as candidates, not catalog staff', () => {
    const reviews = [
      fixtureReview(['s1', '2026-05-01', 5, 'Our tech Brandon was awesome.']),
      fixtureReview(['s2', '2026-04-01', 5, 'Ask for Brandon, he is the best.']),
      fixtureReview(['s3', '2026-03-01', 5, 'Technician named Carla explained everything.']),
      fixtureReview(['s4', '2026-02-01', 5, 'Our tech Mike was on time.']),
      fixtureReview(['s5', '2026-01-01', 5, 'We live on Brandon Street and the plumber was great.']),
    ];
    const doc = engine.compute(fixtureView(reviews));
    const names = doc.entities.staff_candidates.map((c) => [c.name, c.mentions]);
    expect(names).toEqual([
      ['Brandon', 2],
      ['Carla', 1],
    ]);
    for (const c of doc.entities.staff_candidates) {
      c.review_ids.forEach((id, i) => {
        const evidence = c.evidence[i];
        if (evidence) expect(reviews.find((r) => r.id === id)?.text).toContain(evidence);
      });
    }
  });

  it('falls back to compromise for a lower-case staff name after a role word', () => {
    const doc = engine.compute(fixtureView([fixtureReview(['l1', '2026-05-01', 5, 'our tech brandon was great and fixed it fast'])]));
    expect(doc.entities.staff_candidates.map((c) => c.name)).toEqual(['Brandon']);
  });

  it('lists catalog entries with no mentions with zero counts and no rating', () => {
    const doc = engine.compute(fixtureView([fixtureReview(['z1', '2026-01-01', 5, 'Great job.'])]));
    const area = doc.entities.service_areas.find((a) => a.id === 'pflugerville');
    expect(area).toMatchObject({ mentions: 0, average_rating: null, review_ids: [] });
    expect(doc.entities.technicians).toHaveLength(fixtureBusiness.technicians.length);
  });
});
