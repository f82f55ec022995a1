import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTextIndex } from './text-index.js';

// Short alphabets make substrings, repeats and separator-spanning queries common.
const chars = fc.constantFrom('a', 'b', 'é', ' ', '-', '.', '_', '\u00a0', 'A');
const text = fc.string({ unit: chars, maxLength: 30 }).map((s) => s.toLowerCase());

describe('text index (query: a substring of the title or the text)', () => {
  it('finds exactly the reviews a naive includes finds, a match never spanning title and text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, fc.option(text)), { maxLength: 25 }),
        fc.array(text, { minLength: 1, maxLength: 5 }),
        (docs, queries) => {
          const index = createTextIndex(
            docs.length,
            (pos) => docs[pos]![0],
            (pos) => docs[pos]![1],
          );
          for (const q of [...queries, ...queries]) {
            const expected = docs.flatMap(([t, title], pos) => (t.includes(q) || (title?.includes(q) ?? false) ? [pos] : []));
            const got = index.matches(q);
            expect([...got.positions]).toEqual(expected);
            expect([...got.mark].flatMap((m, pos) => (m ? [pos] : []))).toEqual(expected);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
