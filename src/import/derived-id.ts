import { sha256Hex } from '../domain/canonical-json.js';

/**
 * A stable id for a review whose file has no id column (contract §3.1): derived from what identifies
 * the review (platform, author, date, text), so importing the same file twice adds nothing, and a
 * `,` file and its `;` twin from Excel give the same ids. Whitespace and line endings do not count:
 * spreadsheet programs change them on every save.
 */
export function derivedReviewId(parts: { platform: string; author: string; date: string; text: string }): string {
  const tidy = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();
  const key = JSON.stringify([tidy(parts.platform).toLowerCase(), tidy(parts.author), parts.date, tidy(parts.text)]);
  const platform = tidy(parts.platform)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 30);
  return `${platform || 'review'}-${sha256Hex(key).slice(0, 16)}`;
}
