import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countInAll, positionsInAll, toBitset, wordsFor } from '../../src/snapshot/bitset.js';

describe('bitsets over positions', () => {
  it('count and list the positions of a range that are in every set, as a plain filter does', () => {
    const caseArb = fc.integer({ min: 1, max: 3000 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        sets: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }), { maxLength: 5 }),
        lo: fc.integer({ min: 0, max: n }),
        hi: fc.integer({ min: 0, max: n }),
        max: fc.integer({ min: 1, max: 50 }),
      }),
    );
    fc.assert(
      fc.property(caseArb, ({ n, sets, lo, hi, max }) => {
        const bitsets = sets.map((s) => toBitset(s, wordsFor(n)));
        const members = sets.map((s) => new Set(s));
        const expected: number[] = [];
        for (let pos = lo; pos < hi; pos++) if (members.every((m) => m.has(pos))) expected.push(pos);
        expect(countInAll(bitsets, lo, hi)).toBe(expected.length);
        expect(positionsInAll(bitsets, lo, hi, max)).toEqual(expected.slice(0, max));
      }),
      { numRuns: 500 },
    );
  });
});
