import { z } from 'zod';
import { gbpProfile } from '../import/gbp.js';
import type { Listing, PlatformConnector } from './connector.js';
import type { AccessTokens } from './google-oauth.js';
import { PlatformError, platformRequest, type PlatformHttpOptions, type PlatformResponse } from './platform-http.js';

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

function statusHint(status: number): string {
  if (status === 404) return ': check GOOGLE_LOCATION (accounts/{account}/locations/{location}) and that GOOGLE_API_URL is the origin only';
  if (status === 403)
    return ': the account has no access to this location, or the Business Profile API is not enabled for the OAuth client';
  return '';
}

/**
 * Google Business Profile (contract §3.2): `GET {api}/v4/{location}/reviews?pageSize=50`, then with
 * `pageToken` until a page has none, each with a bearer access token; a 401 gets one fresh token and
 * one more try. A review a listing missed is read with `accounts.locations.reviews.get` before the
 * engine deletes it. Reviews are mapped by the Takeout import's own profile (`gbpProfile`).
 */
export function createGoogleConnector(settings: GoogleConnectorSettings): PlatformConnector {
  const base = `${settings.apiUrl.toString().replace(/\/+$/, '')}/v4/${settings.location}/reviews`;

  /** A GET with the bearer token, refreshed once on a 401 (contract §3.2). */
  async function authorizedGet(url: URL, what: string, signal: AbortSignal | undefined): Promise<PlatformResponse> {
    const http = signal ? { ...settings.http, signal } : settings.http;
    for (let refreshed = false; ; refreshed = true) {
      const token = await settings.tokens.current();
      const answer = await platformRequest({ method: 'GET', url, headers: { authorization: `Bearer ${token}` }, what }, http).catch(
        (e: unknown) => {
          // Until Google approves a project's Business Profile API access its quota is 0: every call is a 429.
          if (e instanceof PlatformError && e.code === 'rate_limited')
            throw new PlatformError(
              e.code,
              `${e.message}: the project's quota is used up, or is 0 because Google has not approved its Business Profile API access yet (README, "Keep in step with Google", step 1)`,
              e.status,
            );
          throw e;
        },
      );
      if (answer.status !== 401 || refreshed) return answer;
      settings.tokens.invalidate(token);
    }
  }

  const fail = (what: string, status: number) =>
    new PlatformError(status === 401 ? 'unauthorized' : 'http_status', `${what} answered HTTP ${status}${statusHint(status)}`, status);

  return {
    source: 'google',
    label: 'Google',
    profile: gbpProfile,

    async list(signal) {
      const reviews: unknown[] = [];
      const seen = new Set<string>();
      let token: string | undefined;
      let pages = 0;
      do {
        if (++pages > MAX_PAGES) throw new PlatformError('malformed', `the Google reviews list gave more than ${MAX_PAGES} pages`);
        const url = new URL(base);
        url.searchParams.set('pageSize', String(PAGE_SIZE));
        if (token !== undefined) url.searchParams.set('pageToken', token);
        const answer = await authorizedGet(url, 'the Google reviews list', signal);
        if (answer.status !== 200) throw fail('the Google reviews list', answer.status);
        const page = PageSchema.safeParse(answer.body);
        if (!page.success)
          throw new PlatformError('malformed', 'the Google reviews list answered a page that is not a ListReviewsResponse');
        reviews.push(...(page.data.reviews ?? []));
        token = page.data.nextPageToken || undefined;
        // A token seen before would page in a circle: the listing is malformed (contract §3.2).
        if (token !== undefined && seen.has(token))
          throw new PlatformError('malformed', `the Google reviews list repeated a page token on page ${pages}`);
        if (token !== undefined) seen.add(token);
      } while (token !== undefined);
      return { reviews, pages } satisfies Listing;
    },

    async stillThere(ids, signal) {
      const found: unknown[] = [];
      for (const id of ids) {
        const answer = await authorizedGet(new URL(`${base}/${encodeURIComponent(id)}`), 'the Google review', signal);
        if (answer.status === 404) continue;
        if (answer.status !== 200) throw fail('the Google review', answer.status);
        found.push(answer.body);
      }
      return found;
    },
  };
}
