import { z } from 'zod';
import { gbpProfile } from '../import/gbp.js';
import { listedRecords } from '../import/raw-records.js';
import type { Listing, PlatformConnector } from './connector.js';
import type { AccessTokens } from './google-oauth.js';
import { PlatformError, platformRequest, type PlatformHttpOptions } from './platform-http.js';

/** The v4 list's largest page (accounts.locations.reviews.list: `pageSize` at most 50). */
const PAGE_SIZE = 50;
/** 50 reviews a page: far beyond any one location, and a bound on a platform that pages forever. */
const MAX_PAGES = 10_000;

/** ListReviewsResponse: `reviews` is left out of an empty page, as Google omits empty lists. */
const PageSchema = z.looseObject({
  reviews: z.array(z.unknown()).optional(),
  nextPageToken: z.string().optional(),
});

export interface GoogleConnectorSettings {
  apiUrl: URL;
  /** `accounts/{account}/locations/{location}`. */
  location: string;
  tokens: AccessTokens;
  http: PlatformHttpOptions;
}

/**
 * Google Business Profile (contract §3.2): `GET {api}/v4/{location}/reviews?pageSize=50`, then with
 * `pageToken` until a page has none, each with a bearer access token; a 401 gets one fresh token and
 * one more try. Each review is mapped by the Takeout import's own profile (`gbpProfile`), so a review has
 * the same id and fields whichever way it came in.
 */
export function createGoogleConnector(settings: GoogleConnectorSettings): PlatformConnector {
  const base = settings.apiUrl.toString().replace(/\/+$/, '');
  const listUrl = (pageToken: string | undefined) => {
    const url = new URL(`${base}/v4/${settings.location}/reviews`);
    url.searchParams.set('pageSize', String(PAGE_SIZE));
    if (pageToken !== undefined) url.searchParams.set('pageToken', pageToken);
    return url;
  };

  async function page(pageToken: string | undefined, signal: AbortSignal | undefined) {
    const http = signal ? { ...settings.http, signal } : settings.http;
    for (let refreshed = false; ; refreshed = true) {
      const token = await settings.tokens.current();
      const answer = await platformRequest(
        { method: 'GET', url: listUrl(pageToken), headers: { authorization: `Bearer ${token}` }, what: 'the Google reviews list' },
        http,
      );
      if (answer.status === 401 && !refreshed) {
        settings.tokens.invalidate(token);
        continue;
      }
      if (answer.status !== 200) {
        const hint =
          answer.status === 404
            ? ': check GOOGLE_LOCATION (accounts/{account}/locations/{location})'
            : answer.status === 403
              ? ': the account has no access to this location, or the Business Profile API is not enabled for the OAuth client'
              : '';
        throw new PlatformError(
          answer.status === 401 ? 'unauthorized' : 'http_status',
          `the Google reviews list answered HTTP ${answer.status}${hint}`,
          answer.status,
        );
      }
      const parsed = PageSchema.safeParse(answer.body);
      if (!parsed.success)
        throw new PlatformError('malformed', 'the Google reviews list answered a page that is not a ListReviewsResponse');
      return parsed.data;
    }
  }

  return {
    source: 'google',
    label: 'Google',
    async list(signal) {
      const reviews: unknown[] = [];
      const seen = new Set<string>();
      let token: string | undefined;
      let pages = 0;
      do {
        if (++pages > MAX_PAGES) throw new PlatformError('malformed', `the Google reviews list gave more than ${MAX_PAGES} pages`);
        const answer = await page(token, signal);
        reviews.push(...(answer.reviews ?? []));
        token = answer.nextPageToken || undefined;
        // A token seen before would page in a circle: the listing is malformed (contract §3.2).
        if (token !== undefined && seen.has(token))
          throw new PlatformError('malformed', `the Google reviews list repeated a page token on page ${pages}`);
        if (token !== undefined) seen.add(token);
      } while (token !== undefined);
      return { file: listedRecords(gbpProfile, reviews), pages } satisfies Listing;
    },
  };
}
