import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BusinessSchema } from './business.js';
import { catalogKey, PUBLIC_FORMAT_VERSION } from './catalog-key.js';

// The code that makes a review's public JSON, as it was when PUBLIC_FORMAT_VERSION was last set.
const RECORDED = { version: 1, sources: 'c948d4709ea0a5859d2b6065345ed9748111ba00f3b127ee2c1ac293fb14e6a9' };

describe('catalog key (stored public JSON, issue 15)', () => {
  it('changes with the business and with the public format version only', () => {
    const b = BusinessSchema.parse({ id: 'b', name: 'B' });
    expect(catalogKey(b)).toBe(catalogKey(BusinessSchema.parse({ id: 'b', name: 'B' })));
    expect(catalogKey(b)).not.toBe(catalogKey({ ...b, name: 'C' }));
    expect(catalogKey(null)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('public-review.ts or mentions.ts changed: bump PUBLIC_FORMAT_VERSION, then record their hash here', () => {
    const sources = createHash('sha256')
      .update(readFileSync(new URL('./public-review.ts', import.meta.url)))
      .update(readFileSync(new URL('./mentions.ts', import.meta.url)))
      .digest('hex');
    expect({ version: PUBLIC_FORMAT_VERSION, sources }).toEqual(RECORDED);
  });
});
