import { z } from 'zod';
import type { MappedRecord } from '../import/gbp.js';
import { mappedFile } from '../import/raw-records.js';
import type { Listing, PlatformConnector } from './connector.js';
import { PlatformError, platformRequest, type PlatformHttpOptions } from './platform-http.js';

/** The public reviews endpoint's largest page (`perPage` 1..100). */
const PAGE_SIZE = 100;
const MAX_PAGES = 10_000;

const PageSchema = z.looseObject({ reviews: z.array(z.unknown()) });

/** The fields of a Trustpilot review (GET /v1/business-units/{id}/reviews) that a review record holds. */
const TrustpilotReviewSchema = z.looseObject({
  id: z.string().min(1),
  stars: z.number().int().min(1).max(5),
  title: z.string().nullish(),
  text: z.string().nullish(),
  language: z.string().nullish(),
  createdAt: z.string(),
  consumer: z.looseObject({ displayName: z.string().nullish(), displayLocation: z.string().nullish() }).nullish(),
  companyReply: z.looseObject({ text: z.string().nullish(), createdAt: z.string().nullish() }).nullish(),
});

const day = (timestamp: string | null | undefined) => (timestamp && /^\d{4}-\d{2}-\d{2}T/.test(timestamp) ? timestamp.slice(0, 10) : null);

/** One Trustpilot API review as an import record (contract §3.2: `source.platform` `trustpilot`, verified by the platform). */
export function fromTrustpilotReview(raw: unknown): MappedRecord {
  const parsed = TrustpilotReviewSchema.safeParse(raw);
  if (!parsed.success) return { value: {}, problems: [{ path: '(record)', message: 'is not a Trustpilot review (id, stars, createdAt)' }] };
  const r = parsed.data;
  const date = day(r.createdAt);
  const value: Record<string, unknown> = {
    id: r.id,
    rating: r.stars,
    title: r.title?.trim() || null,
    text: r.text ?? '',
    author: { name: r.consumer?.displayName?.trim() || 'A Trustpilot user', location: r.consumer?.displayLocation?.trim() || null },
    source: { platform: 'trustpilot', url: `https://www.trustpilot.com/reviews/${encodeURIComponent(r.id)}` },
    verified: true,
  };
  if (r.language) value.language = r.language;
  if (date) value.date = date;
  const reply = r.companyReply?.text?.trim();
  if (reply) value.response = { text: reply, date: day(r.companyReply?.createdAt) };
  return {
    value,
    problems: date ? [] : [{ path: 'createdAt', message: `createdAt ${JSON.stringify(r.createdAt)} is not an RFC 3339 timestamp` }],
  };
}

export interface TrustpilotConnectorSettings {
  apiUrl: URL;
  businessUnitId: string;
  apiKey: string;
  http: PlatformHttpOptions;
}

/**
 * Trustpilot (contract §3.2): `GET {api}/v1/business-units/{id}/reviews?perPage=100&page=N` with the
 * `apikey` header, page after page until one comes back short. A page that starts with the review
 * another page started with is the same page again: the listing is malformed, as a repeated Google
 * page token is.
 */
export function createTrustpilotConnector(settings: TrustpilotConnectorSettings): PlatformConnector {
  const base = settings.apiUrl.toString().replace(/\/+$/, '');
  return {
    source: 'trustpilot',
    label: 'Trustpilot',
    async list(signal) {
      const http = signal ? { ...settings.http, signal } : settings.http;
      const reviews: unknown[] = [];
      const firsts = new Set<string>();
      for (let page = 1; ; page++) {
        if (page > MAX_PAGES) throw new PlatformError('malformed', `the Trustpilot reviews list gave more than ${MAX_PAGES} pages`);
        const url = new URL(`${base}/v1/business-units/${encodeURIComponent(settings.businessUnitId)}/reviews`);
        url.searchParams.set('perPage', String(PAGE_SIZE));
        url.searchParams.set('page', String(page));
        const answer = await platformRequest(
          { method: 'GET', url, headers: { apikey: settings.apiKey }, what: 'the Trustpilot reviews list' },
          http,
        );
        if (answer.status !== 200) {
          const hint =
            answer.status === 401 || answer.status === 403
              ? ': check TRUSTPILOT_API_KEY'
              : answer.status === 404
                ? ': check TRUSTPILOT_BUSINESS_UNIT_ID'
                : '';
          throw new PlatformError(
            answer.status === 401 || answer.status === 403 ? 'unauthorized' : 'http_status',
            `the Trustpilot reviews list answered HTTP ${answer.status}${hint}`,
            answer.status,
          );
        }
        const parsed = PageSchema.safeParse(answer.body);
        if (!parsed.success)
          throw new PlatformError('malformed', `the Trustpilot reviews list answered page ${page} without a reviews array`);
        const first = (parsed.data.reviews[0] as { id?: unknown } | undefined)?.id;
        if (typeof first === 'string') {
          if (firsts.has(first))
            throw new PlatformError('malformed', `the Trustpilot reviews list answered page ${page} with a page it gave before`);
          firsts.add(first);
        }
        reviews.push(...parsed.data.reviews);
        if (parsed.data.reviews.length < PAGE_SIZE)
          return { file: mappedFile(reviews, fromTrustpilotReview), pages: page } satisfies Listing;
      }
    },
  };
}
