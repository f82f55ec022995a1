import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../../src/domain/business.js';
import { catalogKey } from '../../src/domain/catalog-key.js';

// That PUBLIC_FORMAT_VERSION moves with the code it names is test/snapshot/code-versions.test.ts's, as
// for every stored output.

describe('catalog key (stored public JSON)', () => {
  it('changes with the business and with the public format version only', () => {
    const b = BusinessSchema.parse({ id: 'b', name: 'B' });
    expect(catalogKey(b)).toBe(catalogKey(BusinessSchema.parse({ id: 'b', name: 'B' })));
    expect(catalogKey(b)).not.toBe(catalogKey({ ...b, name: 'C' }));
    expect(catalogKey(null)).toMatch(/^[0-9a-f]{64}$/);
  });
});
