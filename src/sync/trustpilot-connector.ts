import { z } from 'zod';
import { trustpilotApi } from '../import/profiles/trustpilot.js';
import { listedRecords } from '../import/raw-records.js';
import type { Listing, PlatformConnector } from './connector.js';
import { PlatformError, platformRequest, type PlatformHttpOptions } from './platform-http.js';

/** The public reviews endpoint's largest page (`perPage` 1..100). */
const PAGE_SIZE = 100;
const MAX_PAGES = 10_000;

const PageSchema = z.looseObject({ reviews: z.array(z.unknown()) });

export interface TrustpilotConnectorSettings {
  apiUrl: URL;
  businessUnitId: string;
  apiKey: string;
  http: PlatformHttpOptions;
}

/**
 * Trustpilot (contract §3.2), each review mapped by the import's Trustpilot profile, as its CSV export's
 * row of the same review is: `GET {api}/v1/business-units/{id}/reviews?perPage=100&page=N` with the
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
        if (parsed.data.reviews.length < PAGE_SIZE) return { file: listedRecords(trustpilotApi, reviews), pages: page } satisfies Listing;
      }
    },
  };
}
