import { describe, expect, it } from 'vitest';
import { ANONYMOUS_REVIEWER, fromGbpReview, gbpReviewsOf, originalText } from '../../src/import/gbp.js';

// Invented reviews in the Business Profile API's `Review` shape.
const review = (extra: object = {}) => ({
  name: 'accounts/111/locations/222/reviews/AbC-123_x',
  reviewer: { displayName: 'Mira Solberg', profilePhotoUrl: 'https://example.invalid/p.png', isAnonymous: false },
  starRating: 'FOUR',
  comment: 'The new thermostat works.',
  createTime: '2024-05-06T15:00:00.25Z',
  updateTime: '2024-05-07T10:00:00Z',
  ...extra,
});

describe('gbpReviewsOf (detection from content)', () => {
  it('finds reviews in a list response, an array and a single review', () => {
    expect(gbpReviewsOf({ reviews: [review()], averageRating: 4, totalReviewCount: 1 })).toHaveLength(1);
    expect(gbpReviewsOf([review(), review()])).toHaveLength(2);
    expect(gbpReviewsOf(review())).toHaveLength(1);
  });
  it('leaves dataset documents and arrays of import records alone', () => {
    expect(gbpReviewsOf({ business: { id: 'b', name: 'B' }, reviews: [{ id: 'a', rating: 5 }] })).toBeNull();
    expect(gbpReviewsOf([{ id: 'a', rating: 5 }])).toBeNull();
    expect(gbpReviewsOf({ reviews: [] })).toBeNull();
    expect(gbpReviewsOf('x')).toBeNull();
  });
});

describe('fromGbpReview', () => {
  it('maps id, star words, author, text, day, reply and platform; verified by the platform', () => {
    const { value, problems } = fromGbpReview(
      review({ reviewReply: { comment: 'Thank you, Mira.', updateTime: '2024-05-08T09:00:00Z' }, languageCode: 'en' }),
    );
    expect(problems).toEqual([]);
    expect(value).toEqual({
      id: 'AbC-123_x',
      rating: 4,
      date: '2024-05-06',
      author: { name: 'Mira Solberg', location: null },
      text: 'The new thermostat works.',
      language: 'en',
      response: { text: 'Thank you, Mira.', date: '2024-05-08' },
      source: { platform: 'google', url: null },
      verified: true,
    });
  });
  it('prefers reviewId, and gives anonymous and rating-only reviews a name and an empty text', () => {
    const { value } = fromGbpReview(review({ reviewId: 'R1', reviewer: { isAnonymous: true }, comment: undefined }));
    expect(value).toMatchObject({ id: 'R1', author: { name: ANONYMOUS_REVIEWER }, text: '' });
    expect(fromGbpReview(review({ reviewer: { displayName: 'Kai', isAnonymous: true } })).value.author).toEqual({
      name: ANONYMOUS_REVIEWER,
      location: null,
    });
  });
  it('lists each unreadable field with its value', () => {
    const { problems } = fromGbpReview(review({ name: 'accounts/1', starRating: 'STAR_RATING_UNSPECIFIED', createTime: '2024-05-06' }));
    expect(problems.map((p) => p.path)).toEqual(['reviewId', 'starRating', 'createTime']);
    expect(problems[1]!.message).toContain('"STAR_RATING_UNSPECIFIED"');
    expect(problems[2]!.message).toContain('"2024-05-06"');
    expect(fromGbpReview('nope').problems).toHaveLength(1);
  });
});

describe('originalText', () => {
  it('keeps the original of a machine translation', () => {
    expect(originalText('(Translated by Google) Very good.\n\n(Original)\nSehr gut.')).toBe('Sehr gut.');
    expect(originalText('Sehr gut.\n\n(Translated by Google)\nVery good.')).toBe('Sehr gut.');
  });
  it('leaves other text alone', () => {
    expect(originalText('Plain (Original) text with no translation')).toBe('Plain (Original) text with no translation');
    expect(originalText('')).toBe('');
  });
});
