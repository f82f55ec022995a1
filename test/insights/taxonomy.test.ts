import { describe, expect, it } from 'vitest';
import { compileTaxonomy } from '../../src/insights/analysis/compiled-taxonomy.js';
import { snippetAspects } from '../../src/absa-tools/snippet.js';
import { createInsightsEngine } from '../../src/insights/engine.js';
import { createTaxonomyRegistry } from '../../src/insights/registry.js';
import { builtinTaxonomies } from '../../src/insights/taxonomies/index.js';
import { parseTaxonomy, TaxonomySchema } from '../../src/insights/taxonomy.js';
import { homeServicesTaxonomy } from '../../src/insights/taxonomies/home-services.js';
import { list } from '../../src/insights/taxonomies/list.js';
import { restaurantsTaxonomy } from '../../src/insights/taxonomies/restaurants.js';
import { fixtureReviews, fixtureView } from '../support/insights-fixture.js';

describe('taxonomies', () => {
  it('ships home-services with the ids of insights.md, and restaurants with the SemEval categories', () => {
    expect(TaxonomySchema.parse(homeServicesTaxonomy).aspects.map((a) => a.id)).toEqual([
      'punctuality',
      'professionalism',
      'communication',
      'price',
      'quality',
      'cleanliness',
      'expertise',
      'scheduling',
      'honesty',
    ]);
    expect(
      TaxonomySchema.parse(restaurantsTaxonomy)
        .aspects.map((a) => a.id)
        .sort(),
    ).toEqual(['ambience', 'anecdotes/miscellaneous', 'food', 'price', 'service']);
    expect(builtinTaxonomies.map((t) => t.id)).toEqual(['home-services', 'restaurants']);
  });

  it('reads cue lists written as text, keeping the comma token inside a cue', () => {
    expect(list(`on time, was #MONEY ,, early,\n  late`)).toEqual(['on time', 'was #MONEY ,', 'early', 'late']);
  });

  it('compiles every builtin cue', () => {
    for (const t of builtinTaxonomies) expect(() => compileTaxonomy(t)).not.toThrow();
  });

  it('rejects an invalid taxonomy file', () => {
    expect(() => parseTaxonomy({ id: 'x' })).toThrow();
    expect(() => parseTaxonomy({ id: 'x', label: 'X', aspects: [{ id: 'a' }] })).toThrow();
  });

  it('lets a custom taxonomy extend a builtin one with its own cues', () => {
    const custom = parseTaxonomy({
      id: 'acme',
      label: 'Acme pools',
      extends: 'home-services',
      aspects: [
        { id: 'quality', label: 'Quality', negative: ['green water'] },
        { id: 'chemicals', label: 'Water chemistry', cues: ['chlorine', 'ph'] },
      ],
    });
    const resolved = createTaxonomyRegistry([custom]).get('acme');
    if (!resolved) throw new Error('acme not resolved');
    expect(resolved.aspects.map((a) => a.id)).toContain('punctuality');
    const c = compileTaxonomy(resolved);
    expect(snippetAspects('The pool still had green water after the visit.', c).get('quality')).toBe('negative');
    expect(snippetAspects('They balanced the chlorine perfectly.', c).get('chemicals')).toBe('positive');
    const doc = createInsightsEngine({ taxonomies: [custom] }).compute(
      fixtureView(fixtureReviews, { ...fixtureView().business, taxonomy: 'acme' }),
    );
    expect(doc.method.taxonomy).toBe('acme');
    expect(doc.aspects.map((a) => a.id)).toContain('chemicals');
  });

  it('lets an operator add cues to the default taxonomy under its own id', () => {
    const own = parseTaxonomy({
      id: 'home-services',
      label: 'Home services (Acme)',
      extends: 'home-services',
      aspects: [{ id: 'cleanliness', label: 'Cleanliness', positive: ['used the shop vac'] }],
    });
    const resolved = createTaxonomyRegistry([own]).get('home-services');
    if (!resolved) throw new Error('not resolved');
    expect(resolved.aspects).toHaveLength(9);
    expect(snippetAspects('He used the shop vac when he was done.', compileTaxonomy(resolved)).get('cleanliness')).toBe('positive');
    expect(snippetAspects('He was right on time.', compileTaxonomy(resolved)).get('punctuality')).toBe('positive');
  });

  it('selects the restaurants taxonomy per business', () => {
    const doc = createInsightsEngine().compute(fixtureView(fixtureReviews, { ...fixtureView().business, taxonomy: 'restaurants' }));
    expect(doc.method.taxonomy).toBe('restaurants');
    expect(doc.aspects.map((a) => a.id)).toContain('food');
  });

  it('rejects an extends cycle or an unknown parent', () => {
    const a = parseTaxonomy({ id: 'a', label: 'A', extends: 'b' });
    const b = parseTaxonomy({ id: 'b', label: 'B', extends: 'a' });
    expect(() => createTaxonomyRegistry([a, b])).toThrow(/circular/);
    expect(() => createTaxonomyRegistry([parseTaxonomy({ id: 'c', label: 'C', extends: 'nope' })])).toThrow(/unknown parent/);
  });
});
