import { describe, expect, it } from 'vitest';
import { ImportReviewSchema } from '../../../src/domain/import-record.js';
import { fromTrustpilotCsvRow, fromTrustpilotReview, trustpilotCsv } from '../../../src/import/profiles/trustpilot.js';
import { normalizeHeader } from '../../../src/import/header-synonyms.js';

const API_REVIEW = {
  id: '6633a1f5e1b2c3d4e5f60718',
  consumer: { id: '65f0c2a1b2c3d4e5f6a7b8c9', displayName: 'Wren Halvorsen', countryCode: 'GB' },
  stars: 4,
  title: 'Boiler fixed',
  text: 'Quick and tidy.',
  language: 'en',
  createdAt: '2024-05-02T14:11:09.000Z',
  updatedAt: null,
  companyReply: { text: 'Thank you!', createdAt: '2024-05-03T09:00:00.000Z' },
  status: 'active',
};
const CSV_ROW = {
  'Review Created (UTC)': '2024-05-02T14:11:09.000Z',
  'Review ID': '6633a1f5e1b2c3d4e5f60718',
  'Review Consumer User ID': '65f0c2a1b2c3d4e5f6a7b8c9',
  'Review Title': 'Boiler fixed',
  'Review Content': 'Quick and tidy.',
  'Review Stars': '4',
  'Review Language': 'en',
  'Company Reply Date (UTC)': '2024-05-03T09:00:00.000Z',
  'Reply Content': 'Thank you!',
};

describe('Trustpilot (API review and CSV export row)', () => {
  it('maps one API review to a valid import record, verified by the platform', () => {
    const { value, problems } = fromTrustpilotReview(API_REVIEW);
    expect(problems).toEqual([]);
    expect(ImportReviewSchema.parse(value)).toMatchObject({
      id: '6633a1f5e1b2c3d4e5f60718',
      date: '2024-05-02',
      rating: 4,
      title: 'Boiler fixed',
      text: 'Quick and tidy.',
      language: 'en',
      author: { name: 'Wren Halvorsen', location: 'GB' },
      source: { platform: 'trustpilot', url: 'https://www.trustpilot.com/reviews/6633a1f5e1b2c3d4e5f60718' },
      verified: true,
      hidden: false,
      response: { text: 'Thank you!', date: '2024-05-03' },
    });
  });
  it('gives the CSV row of the same review the same id, content and link; the consumer id is no name', () => {
    const api = fromTrustpilotReview(API_REVIEW).value;
    const csv = fromTrustpilotCsvRow(CSV_ROW);
    expect(csv.problems).toEqual([]);
    const { author: a, ...apiRest } = api;
    const { author: c, ...csvRest } = csv.value;
    expect(csvRest).toEqual(apiRest);
    expect(c).toEqual({ name: 'A Trustpilot reviewer', location: null });
    expect(a).toEqual({ name: 'Wren Halvorsen', location: 'GB' });
    expect(trustpilotCsv.matches(new Set(Object.keys(CSV_ROW).map(normalizeHeader)))).toBe(true);
  });
  it('names what it cannot read, and keeps a review Trustpilot does not show unpublished', () => {
    expect(fromTrustpilotReview({ ...API_REVIEW, stars: 0, createdAt: 'soon' }).problems.map((p) => p.path)).toEqual([
      'stars',
      'createdAt',
    ]);
    expect(fromTrustpilotReview({ ...API_REVIEW, status: 'reported' }).value.hidden).toBe(true);
    expect(fromTrustpilotReview('x').problems[0]?.path).toBe('(record)');
  });
});
