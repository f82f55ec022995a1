import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../../../src/domain/business.js';
import { parseTaxonomy } from '../../../src/insights/taxonomy.js';
import { createTimeSlicer } from '../../../src/snapshot/time-slice.js';
import {
  analysisKey,
  INSIGHTS_CODE_VERSION,
  insightsFingerprint,
  insightsInputHash,
} from '../../../src/snapshot/renderers/insights-input.js';

const business = BusinessSchema.parse({ id: 'b', name: 'B' });
const joined = (items: string[]) => Buffer.from(items.join(','));
const input = { business, updatedAt: '2026-01-01T00:00:00Z', reviews: joined(['{"id":"a"}', '{"id":"b"}']) };

describe('insights input hash', () => {
  it('is stable for equal inputs and changes with any of them', async () => {
    const base = await insightsFingerprint([]);
    const hash = await insightsInputHash(base, input);
    expect(await insightsInputHash(await insightsFingerprint([]), { ...input, reviews: Buffer.from(input.reviews) })).toBe(hash);
    const variants = await Promise.all([
      insightsInputHash(base, { ...input, reviews: joined(['{"id":"a"}']) }),
      insightsInputHash(base, { ...input, reviews: joined(['{"id":"b"}', '{"id":"a"}']) }),
      insightsInputHash(base, { ...input, reviews: joined(['{"id":"a"}{"id":"b"}']) }),
      insightsInputHash(base, { ...input, updatedAt: '2026-01-02T00:00:00Z' }),
      insightsInputHash(base, { ...input, business: { ...business, name: 'C' } }),
      insightsInputHash('0'.repeat(64), input),
    ]);
    expect(new Set([hash, ...variants]).size).toBe(variants.length + 1);
  });

  it('hashes the reviews as the JSON array the worker is sent, sliced or not', async () => {
    const reviewJson = Array.from({ length: 30_000 }, (_, i) => JSON.stringify({ id: `r${i}`, text: `Ünïcode ${i}` }));
    const expected = createHash('sha256')
      .update(`fp\n${JSON.stringify(business)}\n${input.updatedAt}\n`)
      .update(Buffer.from(`[${reviewJson.join(',')}]`))
      .digest('hex');
    const reviews = joined(reviewJson);
    expect(reviews.length).toBeGreaterThan(1 << 20);
    expect(await insightsInputHash('fp', { ...input, reviews })).toBe(expected);
    expect(await insightsInputHash('fp', { ...input, reviews }, createTimeSlicer(0))).toBe(expected);
  });

  it('the fingerprint covers the code version, the taxonomies and the model files by content, not where they are', async () => {
    const models = (bytes: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'models-'));
      fs.writeFileSync(path.join(dir, 'x-absa.json'), bytes);
      return pathToFileURL(`${dir}/`);
    };
    const base = await insightsFingerprint([], models('{"a":1}'));
    expect(await insightsFingerprint([], models('{"a":1}'))).toBe(base);
    expect(await insightsFingerprint([], models('{"a":2}'))).not.toBe(base);
    expect(await insightsFingerprint([], new URL('file:///nonexistent-rds/'))).not.toBe(base);
    const custom = parseTaxonomy({ id: 'custom', label: 'Custom', extends: 'home-services', aspects: [] });
    expect(await insightsFingerprint([custom], models('{"a":1}'))).not.toBe(base);
    expect(INSIGHTS_CODE_VERSION).toMatch(/^\S+$/);
  });

  it('an analysis key changes with the fingerprint, the taxonomy, the text and the rating only', () => {
    const review = { text: 'Great job', rating: 5 };
    const key = analysisKey('fp', 'home-services', review);
    expect(analysisKey('fp', 'home-services', { ...review })).toBe(key);
    expect(
      new Set([
        key,
        analysisKey('fp2', 'home-services', review),
        analysisKey('fp', 'other', review),
        analysisKey('fp', 'home-services', { ...review, text: 'Great job!' }),
        analysisKey('fp', 'home-services', { ...review, rating: 4 }),
      ]).size,
    ).toBe(5);
  });
});
