import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../../domain/business.js';
import { parseTaxonomy } from '../../insights/index.js';
import { insightsFingerprint, insightsInputHash } from './insights-input.js';

const business = BusinessSchema.parse({ id: 'b', name: 'B' });
const array = (items: string[]) => Buffer.from(`[${items.join(',')}]`);
const input = { business, updatedAt: '2026-01-01T00:00:00Z', reviews: array(['{"id":"a"}', '{"id":"b"}']) };

describe('insights input hash (issue 15)', () => {
  const base = insightsFingerprint([]);

  it('is stable for equal inputs and changes with any of them', () => {
    expect(insightsInputHash(base, input)).toBe(
      insightsInputHash(insightsFingerprint([]), { ...input, reviews: Buffer.from(input.reviews) }),
    );
    const variants = [
      insightsInputHash(base, { ...input, reviews: array(['{"id":"a"}']) }),
      insightsInputHash(base, { ...input, reviews: array(['{"id":"b"}', '{"id":"a"}']) }),
      insightsInputHash(base, { ...input, reviews: array(['{"id":"a"}{"id":"b"}']) }),
      insightsInputHash(base, { ...input, updatedAt: '2026-01-02T00:00:00Z' }),
      insightsInputHash(base, { ...input, business: { ...business, name: 'C' } }),
      insightsInputHash('0'.repeat(64), input),
    ];
    expect(new Set([insightsInputHash(base, input), ...variants]).size).toBe(variants.length + 1);
  });

  it('the fingerprint covers the taxonomies, the engine code and the model files', () => {
    const custom = parseTaxonomy({ id: 'custom', label: 'Custom', extends: 'home-services', aspects: [] });
    expect(insightsFingerprint([custom])).not.toBe(base);
    const nowhere = new URL('file:///nonexistent-rds/');
    expect(insightsFingerprint([], nowhere)).not.toBe(base);
    expect(insightsFingerprint([], undefined, nowhere)).not.toBe(base);
  });
});
