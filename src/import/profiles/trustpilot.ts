import { RecordBuilder, type MappedRecord } from './mapped-record.js';
import { cell, field, hasAll, isObject, rowOf, type CsvProfile, type JsonProfile } from './profile.js';

/**
 * Trustpilot (contract §3.1 and §3.2): the reviews of a business unit as the public API lists them
 * (`GET /v1/business-units/{id}/reviews`) and as the Trustpilot Business CSV export gives them. Both map
 * to the same record for the same review (its Trustpilot id, stars, title, text, language, date, the
 * company's reply), so a CSV import followed by a sync adds nothing twice; the live-sync connector
 * stores each listed review through `fromTrustpilotReview`.
 *
 * The CSV export has no reviewer name, only an opaque consumer id: that id is never published as a
 * name (it is not one). Such a reviewer is shown as "A Trustpilot reviewer"; a name column, where an
 * export has one, is read.
 */
export const TRUSTPILOT_PLATFORM = 'trustpilot';
export const ANONYMOUS_TRUSTPILOT_REVIEWER = 'A Trustpilot reviewer';

/** The review's public page on Trustpilot, the same from the API and from the CSV. */
export function trustpilotReviewUrl(id: unknown): string | null {
  return typeof id === 'string' && /^[A-Za-z0-9_-]+$/.test(id) ? `https://www.trustpilot.com/reviews/${id}` : null;
}

/** One review of `GET /v1/business-units/{id}/reviews` as a raw import record (validated by the caller). */
export function fromTrustpilotReview(review: unknown): MappedRecord {
  if (!isObject(review)) return { value: {}, problems: [{ path: '(record)', message: 'is not a Trustpilot review object' }] };
  const id = field(review, 'id');
  const consumer = field(review, 'consumer');
  const reply = field(review, 'companyReply');
  const status = field(review, 'status');
  const b = new RecordBuilder(TRUSTPILOT_PLATFORM, trustpilotReviewUrl(id))
    .id(id)
    .rating('stars', field(review, 'stars'))
    .date('createdAt', field(review, 'createdAt'))
    .title(field(review, 'title'))
    .text(field(review, 'text'))
    .language(field(review, 'language'))
    .author(field(consumer, 'displayName'), ANONYMOUS_TRUSTPILOT_REVIEWER, field(consumer, 'countryCode'))
    .response(field(reply, 'text'), 'companyReply.createdAt', field(reply, 'createdAt'))
    // A review Trustpilot itself does not show (reported, under moderation) is stored, never published.
    .hidden(typeof status === 'string' && status !== 'active');
  if (b.value.id === undefined) b.problems.push({ path: 'id', message: 'id is required (the Trustpilot review id)' });
  return b.done();
}

/** One row of the Trustpilot Business CSV export, keyed by its headers, as a raw import record. */
export function fromTrustpilotCsvRow(record: Readonly<Record<string, string>> | ReadonlyMap<string, string>): MappedRecord {
  const row = record instanceof Map ? (record as ReadonlyMap<string, string>) : rowOf(record as Record<string, string>);
  const id = cell(row, 'Review ID')?.trim();
  const b = new RecordBuilder(TRUSTPILOT_PLATFORM, trustpilotReviewUrl(id))
    .id(id)
    .rating('Review Stars', cell(row, 'Review Stars'))
    .date('Review Created (UTC)', cell(row, 'Review Created (UTC)'))
    .title(cell(row, 'Review Title'))
    .text(cell(row, 'Review Content'))
    .language(cell(row, 'Review Language'))
    .author(
      cell(row, 'Review Consumer Name', 'Consumer Name', 'Review Username', 'Name'),
      ANONYMOUS_TRUSTPILOT_REVIEWER,
      cell(row, 'Review Consumer Country', 'Consumer Country', 'Country Code'),
    )
    .response(
      cell(row, 'Reply Content', 'Company Reply', 'Company Response'),
      'Company Reply Date (UTC)',
      cell(row, 'Company Reply Date (UTC)'),
    );
  if (b.value.id === undefined) b.problems.push({ path: 'Review ID', message: 'Review ID is required (the Trustpilot review id)' });
  return b.done();
}

export const trustpilotCsv: CsvProfile = {
  id: 'trustpilot-csv',
  label: 'a Trustpilot CSV export',
  matches: (h) =>
    hasAll(
      h,
      ['Review ID'],
      ['Review Stars'],
      ['Review Consumer User ID', 'Business Unit ID', 'Webshop Name', 'Reply Content', 'Source Of Review'],
    ),
  columns: [
    'Review ID',
    'Review Created (UTC)',
    'Review Stars',
    'Review Title',
    'Review Content',
    'Review Language',
    'Reply Content',
    'Company Reply',
    'Company Response',
    'Company Reply Date (UTC)',
    'Review Consumer Name',
    'Consumer Name',
    'Review Username',
    'Name',
    'Review Consumer Country',
    'Consumer Country',
    'Country Code',
    // Read and dropped on purpose: an opaque consumer id is no name, an email is private, the rest
    // describe Trustpilot's account rather than the review.
    'Review Consumer User ID',
    'Review Consumer Email',
    'Email',
    'Reference Id',
    'Source Of Review',
    'Domain URL',
    'Webshop Name',
    'Business Unit ID',
    'Tags',
    'Location ID',
    'Location Name',
    'Review Updated (UTC)',
    'Review Verification Level',
  ],
  mapRow: (row) => fromTrustpilotCsvRow(row),
};

const looksLikeTrustpilotReview = (x: unknown) => isObject(x) && 'stars' in x && ('consumer' in x || 'createdAt' in x);

export const trustpilotApi: JsonProfile = {
  id: 'trustpilot-api',
  label: 'a Trustpilot API response',
  reviewsOf(doc) {
    const reviews = Array.isArray(doc) ? doc : field(doc, 'reviews');
    return Array.isArray(reviews) && reviews.length > 0 && looksLikeTrustpilotReview(reviews[0]) ? reviews : null;
  },
  documentKeys: ['reviews', 'links', 'totalNumberOfReviews', 'nextPageToken'],
  reviewKeys: [
    'id',
    'stars',
    'title',
    'text',
    'language',
    'createdAt',
    'consumer',
    'companyReply',
    'status',
    // Dropped on purpose: links and ids of Trustpilot's own, the experience date (the review's date is
    // when it was written), likes, moderation and invitation details, the edit time.
    'updatedAt',
    'experiencedAt',
    'links',
    'businessUnit',
    'location',
    'isVerified',
    'numberOfLikes',
    'reportData',
    'complianceLabels',
    'countsTowardsTrustScore',
    'countsTowardsLocationTrustScore',
    'invitation',
    'businessUnitHistory',
    'reviewVerificationLevel',
    'referenceId',
    'referralEmail',
    'source',
    'tags',
    'findReviewer',
    'isPending',
  ],
  map: fromTrustpilotReview,
};
