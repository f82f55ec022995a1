import { z } from 'zod';
import { trustpilotApi } from '../import/profiles/trustpilot.js';
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

function fail(what: string, status: number): PlatformError {
  const unauthorized = status === 401 || status === 403;
  const hint = unauthorized ? ': check TRUSTPILOT_API_KEY' : status === 404 ? ': check TRUSTPILOT_BUSINESS_UNIT_ID' : '';
  return new PlatformError(unauthorized ? 'unauthorized' : 'http_status', `${what} answered HTTP ${status}${hint}`, status);
}

/**
 * Trustpilot (contract §3.2), each review mapped by the import's Trustpilot profile, as its CSV export's
 * row of the same review is: `GET {api}/v1/business-units/{id}/reviews?perPage=100&page=N` with the
 * `apikey` header, page after page until one comes back short. Oldest first, so a review written while
 * the pages are read lands on the last page rather than shifting the others. A page that starts with the
 * review another page started with is the same page again: the listing is malformed, as a repeated
 * Google page token is. A review a listing missed is read with `GET /v1/reviews/{id}` before it is deleted.
 */
export function createTrustpilotConnector(settings: TrustpilotConnectorSettings): PlatformConnector {
  const base = settings.apiUrl.toString().replace(/\/+$/, '');
  const headers = { apikey: settings.apiKey };
  const http = (signal: AbortSignal | undefined) => (signal ? { ...settings.http, signal } : settings.http);
  return {
    source: 'trustpilot',
    label: 'Trustpilot',
    profile: trustpilotApi,

    async list(signal) {
      const reviews: unknown[] = [];
      const firsts = new Set<string>();
      for (let page = 1; ; page++) {
        if (page > MAX_PAGES) throw new PlatformError('malformed', `the Trustpilot reviews list gave more than ${MAX_PAGES} pages`);
        const url = new URL(`${base}/v1/business-units/${encodeURIComponent(settings.businessUnitId)}/reviews`);
        url.searchParams.set('perPage', String(PAGE_SIZE));
        url.searchParams.set('page', String(page));
        url.searchParams.set('orderBy', 'createdat.asc');
        const answer = await platformRequest({ method: 'GET', url, headers, what: 'the Trustpilot reviews list' }, http(signal));
        if (answer.status !== 200) throw fail('the Trustpilot reviews list', answer.status);
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
        if (parsed.data.reviews.length < PAGE_SIZE) return { reviews, pages: page } satisfies Listing;
      }
    },

    async stillThere(ids, signal) {
      const found: unknown[] = [];
      for (const id of ids) {
        const url = new URL(`${base}/v1/reviews/${encodeURIComponent(id)}`);
        const answer = await platformRequest({ method: 'GET', url, headers, what: 'the Trustpilot review' }, http(signal));
        if (answer.status === 404) continue;
        if (answer.status !== 200) throw fail('the Trustpilot review', answer.status);
        found.push(answer.body);
      }
      return found;
    },
  };
}
