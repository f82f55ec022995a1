import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTimeSlicer } from '../time-slice.js';
import { joinedBytes } from './json-bytes.js';

describe('joinedBytes', () => {
  it('equals the UTF-8 encoding of head + items joined by commas + tail, sliced or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'binary' }), { maxLength: 600 }), fc.string(), fc.string(), async (items, head, tail) => {
        const expected = Buffer.from(head + items.join(',') + tail, 'utf8');
        expect((await joinedBytes(items, head, tail)).equals(expected)).toBe(true);
        expect((await joinedBytes(items, head, tail, createTimeSlicer(0))).equals(expected)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});
