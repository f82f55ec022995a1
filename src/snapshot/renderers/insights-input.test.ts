import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../../domain/business.js';
import { parseTaxonomy } from '../../insights/index.js';
import { createTimeSlicer } from '../time-slice.js';
import { analysisKey, insightsFingerprint, insightsInputHash } from './insights-input.js';
import { joinedBytes } from './json-bytes.js';

const business = BusinessSchema.parse({ id: 'b', name: 'B' });
const input = { business, updatedAt: '2026-01-01T00:00:00Z', reviewJson: ['{"id":"a"}', '{"id":"b"}'] };

describe('insights input hash (issue 15)', () => {
  it('is stable for equal inputs and changes with any of them', async () => {
    const base = await insightsFingerprint([]);
    const hash = await insightsInputHash(base, input);
    expect(await insightsInputHash(await insightsFingerprint([]), { ...input, reviewJson: [...input.reviewJson] })).toBe(hash);
    const variants = await Promise.all([
      insightsInputHash(base, { ...input, reviewJson: ['{"id":"a"}'] }),
      insightsInputHash(base, { ...input, reviewJson: ['{"id":"b"}', '{"id":"a"}'] }),
      insightsInputHash(base, { ...input, reviewJson: ['{"id":"a"}{"id":"b"}'] }),
      insightsInputHash(base, { ...input, updatedAt: '2026-01-02T00:00:00Z' }),
      insightsInputHash(base, { ...input, business: { ...business, name: 'C' } }),
      insightsInputHash('0'.repeat(64), input),
    ]);
    expect(new Set([hash, ...variants]).size).toBe(variants.length + 1);
  });

  it('hashes the reviews as the JSON array the worker is sent, sliced or not', async () => {
    const reviewJson = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `r${i}`, text: `Ünïcode ${i}` }));
    const bytes = await joinedBytes(reviewJson, '[', ']');
    const expected = createHash('sha256')
      .update(`fp\n${JSON.stringify(business)}\n${input.updatedAt}\n`)
      .update(bytes)
      .digest('hex');
    expect(await insightsInputHash('fp', { ...input, reviewJson })).toBe(expected);
    expect(await insightsInputHash('fp', { ...input, reviewJson }, createTimeSlicer(0))).toBe(expected);
  });

  it('the fingerprint covers the taxonomies, the engine code and the model files', async () => {
    const base = await insightsFingerprint([]);
    const custom = parseTaxonomy({ id: 'custom', label: 'Custom', extends: 'home-services', aspects: [] });
    expect(await insightsFingerprint([custom])).not.toBe(base);
    const nowhere = new URL('file:///nonexistent-rds/');
    expect(await insightsFingerprint([], nowhere)).not.toBe(base);
    expect(await insightsFingerprint([], undefined, nowhere)).not.toBe(base);
  });

  it('an analysis key changes with the fingerprint, the taxonomy and the text only', () => {
    const key = analysisKey('fp', 'home-services', 'Great job');
    expect(analysisKey('fp', 'home-services', 'Great job')).toBe(key);
    expect(
      new Set([
        key,
        analysisKey('fp2', 'home-services', 'Great job'),
        analysisKey('fp', 'other', 'Great job'),
        analysisKey('fp', 'home-services', 'Great job!'),
      ]).size,
    ).toBe(4);
  });
});
