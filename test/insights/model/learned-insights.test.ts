import { describe, expect, it } from 'vitest';
import { readShippedModels } from '../../../src/absa-models.js';
import { createInsightsEngine } from '../../../src/insights/engine.js';
import { fixtureReview, fixtureView } from '../../support/insights-fixture.js';
import { parseTaxonomy } from '../../../src/insights/taxonomy.js';
import { compileTaxonomy } from '../../../src/insights/analysis/compiled-taxonomy.js';
import { tokenize } from '../../../src/insights/nlp/wink.js';
import { createTaxonomyRegistry } from '../../../src/insights/registry.js';
import { loadAbsaModel } from '../../../src/insights/model/absa-model.js';
import { buildSpan } from '../../../src/insights/model/features.js';

const models = readShippedModels();
const engine = createInsightsEngine({ models });

describe('insights judged by the shipped model', () => {
  it('ships a home-services model that the engine names in method.version', () => {
    expect(models.map((m) => m.taxonomy)).toContain('home-services');
    const doc = engine.compute(fixtureView([fixtureReview(['a', '2026-01-01', 5, 'On time and fair.'])]));
    const model = models.find((m) => m.taxonomy === 'home-services');
    expect(doc.method.version).toBe(`2.0.0+home-services-absa.${model?.version ?? ''}`);
  });

  it('a business whose customers mostly complain about price shows price as negative', () => {
    const complaints = [
      'Way overpriced for a simple faucet swap.',
      'They quoted $250 and the invoice came to $610.',
      'Highway robbery, $400 to unclog a sink.',
      'The price doubled once they "found more problems".',
      'We paid almost twice what our neighbor paid for the same water heater.',
      'Charged a $150 trip fee nobody mentioned on the phone.',
      'Great guys but their prices are insane.',
      'Fair price for the work.',
    ];
    const reviews = complaints.map((text, i) => fixtureReview([`p${i}`, `2026-0${(i % 9) + 1}-10`, i === 7 ? 5 : 2, text]));
    const price = engine.compute(fixtureView(reviews)).aspects.find((a) => a.id === 'price');
    expect(price?.negative).toBeGreaterThan(price?.positive ?? 0);
    expect(price?.score).toBeLessThan(0);
  });

  it('reads the complaints the rules read as praise', () => {
    const reviews = [
      fixtureReview(['m1', '2026-03-01', 2, 'They left a mess under the sink.']),
      fixtureReview(['m2', '2026-03-02', 1, 'Nobody ever showed.']),
      fixtureReview(['m3', '2026-03-03', 1, 'Radio silence for 2 weeks after they took our deposit.']),
      fixtureReview(['m4', '2026-03-04', 2, 'Two weeks later the same problem was back.']),
    ];
    const doc = engine.compute(fixtureView(reviews));
    const get = (id: string) => doc.aspects.find((a) => a.id === id);
    expect(get('cleanliness')?.positive).toBe(0);
    expect(get('cleanliness')?.negative).toBeGreaterThan(0);
    expect(get('punctuality')?.positive ?? 0).toBe(0);
    expect(get('communication')?.positive ?? 0).toBe(0);
    expect(get('quality')?.positive ?? 0).toBe(0);
  });

  it('says "consistently" only with enough reviews, and agrees in number', () => {
    const reviews = [
      'Spotless, they cleaned up everything.',
      'Left the place cleaner than they found it.',
      'Wore shoe covers and swept up.',
    ].map((t, i) => fixtureReview([`c${i}`, `2026-04-0${i + 1}`, 5, t]));
    const faq = engine.compute(fixtureView(reviews)).faq.map((f) => f.answer);
    expect(faq.join(' ')).not.toMatch(/consistently/i);
    expect(faq.join(' ')).not.toMatch(/\b1 reviews\b|\b1 (are|praise|complain)\b/);
  });
});

describe('a sentence read in its review', () => {
  const model = loadAbsaModel(models.find((m) => m.taxonomy === 'home-services')!);
  const compiled = compileTaxonomy(createTaxonomyRegistry().get('home-services')!, model);
  const judged = (text: string, rating: number | undefined) => {
    const { tokens } = tokenize(text);
    const span = buildSpan(tokens, 0, tokens.length, compiled, { rating });
    return model.judge(span, 'price', model.detect(span).get('price') ?? 0).score;
  };

  it('takes the review rating as a prior for polarity, not as the answer', () => {
    // A bare price reads as praise more in a five-star review than in a one-star review.
    const bare = 'The bill came to $450.';
    expect(judged(bare, 5)).toBeGreaterThan(judged(bare, 1));
    // A clear complaint stays a complaint in a five-star review.
    expect(judged('Way overpriced, a total rip off.', 5)).toBeLessThan(0);
  });
});

describe('custom taxonomies under the shipped model', () => {
  const custom = parseTaxonomy({
    id: 'acme-pools',
    label: 'Acme pools',
    extends: 'home-services',
    aspects: [{ id: 'chemicals', label: 'Water chemistry', cues: ['chlorine', 'ph'] }],
  });
  const doc = createInsightsEngine({ taxonomies: [custom], models }).compute(
    fixtureView(
      [
        fixtureReview(['k1', '2026-02-01', 5, 'They balanced the chlorine perfectly.']),
        fixtureReview(['k2', '2026-02-02', 1, 'Two hours late and nobody called.']),
      ],
      { ...fixtureView().business, taxonomy: 'acme-pools' },
    ),
  );

  it('keeps the model of the taxonomy it extends', () => {
    expect(doc.method.version).toMatch(/^2\.0\.0\+home-services-absa\./);
    expect(doc.aspects.find((a) => a.id === 'punctuality')?.negative).toBe(1);
  });

  it('judges an aspect with no training data by its cue rules', () => {
    expect(doc.aspects.find((a) => a.id === 'chemicals')?.positive).toBe(1);
  });
});
