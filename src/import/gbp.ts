import { z } from 'zod';
import type { MappedRecord } from './profiles/mapped-record.js';
import type { JsonProfile } from './profiles/profile.js';
import { parseDate, STAR_WORDS } from './sheet-values.js';

/**
 * Google Business Profile reviews (contract §3.1): the Business Profile API's `Review` resource
 * (accounts.locations.reviews) and its list response, as the API returns them and Google Takeout
 * exports them. Fields the contract has no place for (the reviewer's photo and profile URL, review
 * photos) are dropped; see the README.
 */
export const GbpReviewSchema = z.looseObject({
  reviewId: z.string().optional(),
  name: z.string().optional(),
  reviewer: z.looseObject({ displayName: z.string().optional(), isAnonymous: z.boolean().optional() }).optional(),
  starRating: z.string().optional(),
  comment: z.string().optional(),
  createTime: z.string().optional(),
  updateTime: z.string().optional(),
  reviewReply: z.looseObject({ comment: z.string().optional(), updateTime: z.string().optional() }).nullable().optional(),
  languageCode: z.string().optional(),
});
export type GbpReview = z.infer<typeof GbpReviewSchema>;

/** How Google names a reviewer who chose not to show their name. */
export const ANONYMOUS_REVIEWER = 'A Google user';

const GBP_KEYS = ['starRating', 'reviewer', 'createTime', 'reviewReply'];
const looksLikeGbpReview = (x: unknown): boolean => !!x && typeof x === 'object' && !Array.isArray(x) && GBP_KEYS.some((k) => k in x);

/**
 * The reviews of a GBP document: a list response `{ reviews: [...] }`, an array, or one review. Null
 * when the document is not in that form. Detection looks at the first review only: a file is one
 * export, not a mixture.
 */
export function gbpReviewsOf(doc: unknown): unknown[] | null {
  if (Array.isArray(doc)) return doc.length > 0 && looksLikeGbpReview(doc[0]) ? doc : null;
  if (!doc || typeof doc !== 'object') return null;
  const reviews = (doc as { reviews?: unknown }).reviews;
  if (Array.isArray(reviews)) return reviews.length > 0 && looksLikeGbpReview(reviews[0]) ? reviews : null;
  if (reviews === undefined && !('business' in doc) && looksLikeGbpReview(doc)) return [doc];
  return null;
}

/** True for a list response with no reviews (`{}` or `{ "reviews": [] }` with GBP's paging fields). */
export function isEmptyGbpList(doc: unknown): boolean {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return false;
  const d = doc as Record<string, unknown>;
  return (
    (d.reviews === undefined || (Array.isArray(d.reviews) && d.reviews.length === 0)) &&
    ('totalReviewCount' in d || 'averageRating' in d || 'nextPageToken' in d)
  );
}

/**
 * "(Translated by Google) <translation>\n\n(Original)\n<original>": Google shows its machine
 * translation first; the review as its author wrote it is what is published. The reverse layout
 * ("<original>\n\n(Translated by Google) <translation>") keeps the part before the marker.
 */
export function originalText(comment: string): string {
  const original = /\(Original\)\s*([\s\S]*)$/.exec(comment);
  if (/^\s*\(Translated by Google\)/.test(comment) && original) return original[1]!.trim();
  const translated = /^([\s\S]*?)\s*\(Translated by Google\)[\s\S]*$/.exec(comment);
  if (translated && translated[1]!.trim() !== '') return translated[1]!.trim();
  return comment;
}

/** The review id: `reviewId`, else the last segment of `name` (`accounts/…/locations/…/reviews/{id}`). */
function gbpId(r: GbpReview): string | undefined {
  if (r.reviewId) return r.reviewId;
  const m = /\/reviews\/([^/]+)$/.exec(r.name ?? '');
  return m?.[1];
}

export type { MappedRecord };

type Problems = MappedRecord['problems'];

/** One GBP review as an import record; each GBP field that cannot be read is one problem. */
export function fromGbpReview(raw: unknown): MappedRecord {
  const problems: Problems = [];
  const parsed = GbpReviewSchema.safeParse(raw);
  if (!parsed.success) return { value: {}, problems: [{ path: '(record)', message: 'is not a Google Business Profile review object' }] };
  const r = parsed.data;
  const value: Record<string, unknown> = { verified: true, source: { platform: 'google', url: null } };

  const id = gbpId(r);
  if (id) value.id = id;
  else problems.push({ path: 'reviewId', message: 'reviewId (or name ending in /reviews/{id}) is required' });
  const stars = gbpStars(r, problems);
  if (stars !== undefined) value.rating = stars;
  const date = gbpCreated(r, problems);
  if (date !== undefined) value.date = date;

  const name = r.reviewer?.displayName?.trim();
  value.author = { name: r.reviewer?.isAnonymous || !name ? ANONYMOUS_REVIEWER : name, location: null };
  value.text = r.comment === undefined ? '' : originalText(r.comment);
  if (r.languageCode) value.language = r.languageCode;
  if (r.reviewReply?.comment) value.response = gbpResponse(r.reviewReply.comment, r.reviewReply.updateTime, problems);
  return { value, problems };
}

/** `starRating` as a number of stars ("FOUR": 4). */
function gbpStars(r: GbpReview, problems: Problems): number | undefined {
  const stars = r.starRating === undefined ? undefined : STAR_WORDS[r.starRating.toUpperCase()];
  if (stars === undefined)
    problems.push({
      path: 'starRating',
      message: `starRating ${JSON.stringify(r.starRating ?? null)} is not one of ONE, TWO, THREE, FOUR, FIVE`,
    });
  return stars;
}

/** `createTime`, which must be a timestamp, as the review's date. */
function gbpCreated(r: GbpReview, problems: Problems): string | undefined {
  const date = r.createTime === undefined ? null : parseDate(r.createTime, undefined);
  if (date?.ok && r.createTime!.includes('T')) return date.value;
  problems.push({ path: 'createTime', message: `createTime ${JSON.stringify(r.createTime ?? null)} is not an RFC 3339 timestamp` });
  return undefined;
}

/** The owner's reply, dated by its `updateTime` when that is a timestamp. */
function gbpResponse(text: string, updateTime: string | undefined, problems: Problems): { text: string; date: string | null } {
  const replyDate = updateTime === undefined ? null : parseDate(updateTime, undefined);
  if (updateTime !== undefined && !replyDate?.ok)
    problems.push({
      path: 'reviewReply.updateTime',
      message: `reviewReply.updateTime ${JSON.stringify(updateTime)} is not an RFC 3339 timestamp`,
    });
  return { text, date: replyDate?.ok ? replyDate.value : null };
}

/** Google Business Profile as a known JSON export (`profiles/`): the API's and Takeout's review JSON. */
export const gbpProfile: JsonProfile = {
  id: 'gbp',
  label: 'Google Business Profile review JSON',
  reviewsOf: gbpReviewsOf,
  documentKeys: ['reviews', 'averageRating', 'totalReviewCount', 'nextPageToken'],
  // Read, or dropped on purpose (the edit time; photos belong to Google and the reviewer: see the README).
  reviewKeys: [
    'reviewId',
    'name',
    'reviewer',
    'starRating',
    'comment',
    'createTime',
    'updateTime',
    'reviewReply',
    'languageCode',
    'reviewMediaItems',
  ],
  map: fromGbpReview,
};
