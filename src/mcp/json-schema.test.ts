import { describe, expect, it } from 'vitest';
import { withPatternKeys } from './json-schema.js';

describe('withPatternKeys', () => {
  const schema = {
    type: 'object' as const,
    properties: { rating: { type: 'integer' }, fields: { type: 'array' }, 'a.b': { type: 'string' } },
    required: ['rating'],
  };

  it('moves optional keys to anchored patternProperties, leaving the others in properties', () => {
    const out = withPatternKeys(schema, ['fields', 'a.b']);
    expect(Object.keys(out.properties as object)).toEqual(['rating']);
    expect(out.patternProperties).toEqual({ '^fields$': { type: 'array' }, '^a\\.b$': { type: 'string' } });
    expect(out.required).toEqual(['rating']);
    // The pattern matches that one name only.
    const pattern = new RegExp(Object.keys(out.patternProperties as object)[1]!);
    expect(pattern.test('a.b')).toBe(true);
    expect(pattern.test('axb')).toBe(false);
  });

  it('refuses to move a required key, which patternProperties cannot require', () => {
    expect(() => withPatternKeys(schema, ['rating'])).toThrow(/required.*rating/);
  });
});
