import { platformName, RecordBuilder } from './mapped-record.js';
import { cell, hasAll, type CsvProfile } from './profile.js';

/**
 * Review management tools that collect a business's reviews from every platform and export them as
 * one spreadsheet: each row keeps the platform it came from (`source.platform`), verified by that
 * platform. The columns follow each tool's documented review fields; a recommendation without stars
 * (Facebook) is scored 5 or 1, as these tools score it.
 */
function recommendation(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const s = raw.trim().toLowerCase();
  if (s === 'recommended' || s === 'positive' || s === 'yes' || s === 'true') return '5';
  if (s === 'not recommended' || s === 'negative' || s === 'no' || s === 'false') return '1';
  return raw;
}

/** Birdeye's review export: the review fields of its reviews report and API. */
export const birdeyeCsv: CsvProfile = {
  id: 'birdeye-csv',
  label: 'a Birdeye review export',
  matches: (h) => hasAll(h, ['Review Source', 'Source Type'], ['Comments'], ['Reviewer First Name', 'Reviewer Name'], ['Rating']),
  columns: [
    'Review ID',
    'Review Source',
    'Source Type',
    'Reviewer First Name',
    'Reviewer Last Name',
    'Reviewer Name',
    'Reviewer City',
    'Rating',
    'Recommendation',
    'Comments',
    'Review Title',
    'Review Date',
    'Review URL',
    'Response',
    'Response Date',
    // Dropped on purpose: the reviewer's contact details are private; the rest describe Birdeye's account.
    'Reviewer Email',
    'Reviewer Phone',
    'Business Name',
    'Business ID',
    'Location',
    'Location Name',
    'Sentiment',
    'Tags',
  ],
  mapRow(row) {
    const first = cell(row, 'Reviewer First Name');
    const last = cell(row, 'Reviewer Last Name');
    const name = cell(row, 'Reviewer Name') ?? [first, last].filter(Boolean).join(' ');
    return new RecordBuilder(platformName(cell(row, 'Review Source', 'Source Type'), 'birdeye'), cell(row, 'Review URL'))
      .id(cell(row, 'Review ID'))
      .rating('Rating', cell(row, 'Rating') ?? recommendation(cell(row, 'Recommendation')))
      .date('Review Date', cell(row, 'Review Date'))
      .title(cell(row, 'Review Title'))
      .text(cell(row, 'Comments'))
      .author(name, 'A customer', cell(row, 'Reviewer City'))
      .response(cell(row, 'Response'), 'Response Date', cell(row, 'Response Date'))
      .done();
  },
};

/** Podium's review export: the fields of Podium's review object (author, review site, rating, body, responses). */
export const podiumCsv: CsvProfile = {
  id: 'podium-csv',
  label: 'a Podium review export',
  matches: (h) => hasAll(h, ['Review Site', 'Site Name'], ['Site Review ID', 'Review UID', 'Needs Response'], ['Rating']),
  columns: [
    'Review UID',
    'Site Review ID',
    'Review Site',
    'Site Name',
    'Author Name',
    'Author',
    'Rating',
    'Is Recommendation',
    'Review Body',
    'Review',
    'Created At',
    'Review Date',
    'Review URL',
    'Response',
    'Response Body',
    'Response Date',
    'Responded At',
    // Dropped on purpose: Podium's own ids, locations and workflow flags, and who on the team is credited.
    'Author ID',
    'Location',
    'Location Name',
    'Location UID',
    'Needs Response',
    'Updated At',
    'Attributed To',
    'Response Author',
  ],
  mapRow(row) {
    const site = platformName(cell(row, 'Review Site', 'Site Name'), 'podium');
    // The review site's own id, as the platform's export or API gives it (a Google review imported from
    // Takeout and from Podium is one review); Podium's id when there is none.
    return new RecordBuilder(site, cell(row, 'Review URL'))
      .id(cell(row, 'Site Review ID', 'Review UID'))
      .rating('Rating', cell(row, 'Rating'))
      .date('Created At', cell(row, 'Created At', 'Review Date'))
      .text(cell(row, 'Review Body', 'Review'))
      .author(cell(row, 'Author Name', 'Author'), 'A customer')
      .response(cell(row, 'Response', 'Response Body'), 'Response Date', cell(row, 'Response Date', 'Responded At'))
      .done();
  },
};
