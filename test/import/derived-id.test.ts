import { describe, expect, it } from 'vitest';
import { derivedReviewId } from '../../src/import/derived-id.js';

describe('derivedReviewId (contract §3.1: stable ids without an id column)', () => {
  const base = { platform: 'yelp', author: 'Dana Kowalski', date: '2024-03-25', text: 'Quick and fair.' };
  it('is the same for the same review, whatever the whitespace and line endings', () => {
    const id = derivedReviewId(base);
    expect(id).toMatch(/^yelp-[0-9a-f]{16}$/);
    expect(derivedReviewId({ ...base, author: ' Dana Kowalski ', text: 'Quick  and\r\nfair. ' })).toBe(id);
    expect(derivedReviewId({ ...base, platform: 'Yelp' })).toBe(id);
  });
  it('changes with each of platform, author, date and text', () => {
    const id = derivedReviewId(base);
    for (const change of [{ platform: 'google' }, { author: 'Dana K.' }, { date: '2024-03-26' }, { text: 'Quick and fair!' }])
      expect(derivedReviewId({ ...base, ...change }), JSON.stringify(change)).not.toBe(id);
  });
  it('keeps the fields apart (no concatenation collisions) and names odd platforms safely', () => {
    expect(derivedReviewId({ ...base, author: 'A', text: 'B C' })).not.toBe(derivedReviewId({ ...base, author: 'A B', text: 'C' }));
    expect(derivedReviewId({ ...base, platform: 'Trust Pilot!' })).toMatch(/^trust-pilot-[0-9a-f]{16}$/);
    expect(derivedReviewId({ ...base, platform: '//' })).toMatch(/^review-[0-9a-f]{16}$/);
  });
});
