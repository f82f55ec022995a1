import { describe, expect, it } from 'vitest';
import { compileTaxonomy } from '../../src/insights/analysis/compiled-taxonomy.js';
import { createTaxonomyRegistry } from '../../src/insights/registry.js';
import { parseLabelledJsonl } from '../../src/absa-tools/absa-eval.js';
import { spansOf } from '../../src/absa-tools/train.js';

const compiled = compileTaxonomy(createTaxonomyRegistry().get('home-services')!);

describe('labelled lines in their review', () => {
  it('gives each line its review rating and the aspects its neighbouring lines name, within one review only', () => {
    const data = parseLabelledJsonl(
      [
        { id: 'a1', text: 'The price was fair.', aspects: [], review: 'a', rating: 4 },
        { id: 'a2', text: 'We called them on a Monday.', aspects: [], review: 'a', rating: 4 },
        { id: 'a3', text: 'He showed up on time.', aspects: [], review: 'a', rating: 4 },
        { id: 'b1', text: 'Never again.', aspects: [], review: 'b', rating: 1 },
        { id: 'c1', text: 'A lone sentence.', aspects: [] },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const spans = spansOf(data, compiled);
    expect(spans.map((s) => s.context.rating)).toEqual([4, 4, 4, 1, undefined]);
    expect([...(spans[1]?.context.neighbours ?? [])].sort()).toEqual(['price', 'punctuality']);
    expect([...(spans[0]?.context.neighbours ?? [])]).toEqual([]);
    // The next review's first line is no neighbour of this one's last.
    expect([...(spans[3]?.context.neighbours ?? [])]).toEqual([]);
    expect(spans[4]?.context.neighbours).toBeUndefined();
  });
});
