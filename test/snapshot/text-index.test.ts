import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTextIndex } from '../../src/snapshot/text-index.js';

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

  it('warmed in the smallest slices, it finds the same as built at once', async () => {
    const docs = Array.from(
      { length: 300 },
      (_, i) => [`Review ${i}: the drain ${i % 7 === 0 ? 'Leaked' : 'held'}, tech-${i % 11}`, i % 3 ? `Title ${i}` : null] as const,
    );
    const warmed = createTextIndex(
      docs.length,
      (pos) => docs[pos]![0],
      (pos) => docs[pos]![1],
    );
    let pauses = 0;
    await warmed.warm({ due: () => true, pause: () => (pauses++, Promise.resolve()) });
    expect(pauses).toBeGreaterThan(300);
    const atOnce = createTextIndex(
      docs.length,
      (pos) => docs[pos]![0],
      (pos) => docs[pos]![1],
    );
    for (const q of ['leaked', 'tech-1', 'title 2', 'the drain', ': ', 'review 29']) {
      const expected = docs.flatMap(([t, title], pos) =>
        t.toLowerCase().includes(q) || (title?.toLowerCase().includes(q) ?? false) ? [pos] : [],
      );
      expect([...warmed.matches(q).positions]).toEqual(expected);
      expect([...atOnce.matches(q).positions]).toEqual(expected);
    }
  });
});
