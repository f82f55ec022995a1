import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinAnswer, writeReviewBytes } from '../../src/snapshot/review-bytes.js';
import { createTimeSlicer } from '../../src/snapshot/time-slice.js';

describe('review bytes (each review held once)', () => {
  it('the document is the UTF-8 of head + items joined by commas + tail, and each item its own slice, sliced or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'binary' }), { maxLength: 600 }), fc.string(), fc.string(), async (items, head, tail) => {
        const expected = Buffer.from(head + items.join(',') + tail, 'utf8');
        for (const slicer of [undefined, createTimeSlicer(0)]) {
          const bytes = await writeReviewBytes(items, head, tail, slicer);
          expect(bytes.document.equals(expected)).toBe(true);
          expect(bytes.count).toBe(items.length);
          items.forEach((item, i) => {
            expect(bytes.json(i)).toBe(Buffer.from(item, 'utf8').toString('utf8'));
            expect(bytes.bytes(i).equals(Buffer.from(item, 'utf8'))).toBe(true);
          });
          const mid = Math.floor(items.length / 2);
          expect(bytes.range(1, mid + 1).toString('utf8')).toBe(Buffer.from(items.slice(1, mid + 1).join(','), 'utf8').toString('utf8'));
          expect(bytes.range(mid, mid).length).toBe(0);
          const picked = items
            .map((_, i) => i)
            .filter((i) => i % 3 !== 1)
            .reverse();
          expect(bytes.join(head, picked, tail).equals(Buffer.from(head + picked.map((i) => items[i]).join(',') + tail, 'utf8'))).toBe(
            true,
          );
        }
      }),
      { numRuns: 50 },
    );
  });

  it('a rebuild from the previous bytes and new strings equals one written from strings alone', async () => {
    const first = await writeReviewBytes(['{"a":"é"}', '{"b":2}', '{"c":"ü"}'], '{"reviews":[', ']}');
    const next = await writeReviewBytes([first.bytes(2), '{"new":"ñ"}', first.bytes(0)], 'H[', ']T');
    expect(next.document.toString('utf8')).toBe('H[{"c":"ü"},{"new":"ñ"},{"a":"é"}]T');
    // The new document holds its own copy: the old one can go.
    first.document.fill(0);
    expect(next.document.toString('utf8')).toBe('H[{"c":"ü"},{"new":"ñ"},{"a":"é"}]T');
  });

  it('an answer joins its parts between a prefix and a suffix', () => {
    expect(joinAnswer('[', [Buffer.from('1'), Buffer.from('"é"')], ']').toString('utf8')).toBe('[1,"é"]');
    expect(joinAnswer('{"r":[', [], ']}').toString('utf8')).toBe('{"r":[]}');
  });
});
