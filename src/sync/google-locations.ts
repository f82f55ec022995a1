import { z } from 'zod';
import type { AccessTokens } from './google-oauth.js';
import { PlatformError, platformRequest, type PlatformHttpOptions } from './platform-http.js';

/** accounts.list of the Account Management API: `name` is `accounts/{account}`. */
const AccountsSchema = z.looseObject({
  accounts: z.array(z.looseObject({ name: z.string(), accountName: z.string().optional() })).optional(),
  nextPageToken: z.string().optional(),
});
/** accounts.locations.list of the Business Information API: `name` is `locations/{location}`. */
const LocationsSchema = z.looseObject({
  locations: z.array(z.looseObject({ name: z.string(), title: z.string().optional() })).optional(),
  nextPageToken: z.string().optional(),
});

export interface GoogleLocation {
  /** What GOOGLE_LOCATION takes: `accounts/{account}/locations/{location}`. */
  name: string;
  title: string;
}

export interface LocationApis {
  accountsUrl: URL;
  businessInfoUrl: URL;
}

/** Every page of a Google list method, each request with a bearer token. */
async function pages<T extends z.ZodType<{ nextPageToken?: string | undefined }>>(
  url: URL,
  schema: T,
  what: string,
  tokens: AccessTokens,
  http: PlatformHttpOptions,
): Promise<z.infer<T>[]> {
  const out: z.infer<T>[] = [];
  const seen = new Set<string>();
  for (let token: string | undefined; ;) {
    const page = new URL(url);
    if (token) page.searchParams.set('pageToken', token);
    const access = await tokens.current();
    const answer = await platformRequest({ method: 'GET', url: page, headers: { authorization: `Bearer ${access}` }, what }, http);
    if (answer.status !== 200) throw new PlatformError('http_status', `${what} answered HTTP ${answer.status}`, answer.status);
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success) throw new PlatformError('malformed', `${what} answered a body of another shape`);
    out.push(parsed.data);
    token = parsed.data.nextPageToken || undefined;
    if (!token) return out;
    if (seen.has(token)) throw new PlatformError('malformed', `${what} repeated a page token`);
    seen.add(token);
  }
}

/**
 * The locations the connected Google account manages, named as GOOGLE_LOCATION takes them, so the owner
 * can copy one after `review-data connect google`. Both APIs answer only once Google approved the
 * project's access to the Business Profile APIs.
 */
export async function listGoogleLocations(tokens: AccessTokens, apis: LocationApis, http: PlatformHttpOptions): Promise<GoogleLocation[]> {
  const base = (u: URL) => u.toString().replace(/\/+$/, '');
  const accounts = (
    await pages(new URL(`${base(apis.accountsUrl)}/v1/accounts`), AccountsSchema, 'the Google accounts list', tokens, http)
  ).flatMap((p) => p.accounts ?? []);
  const found: GoogleLocation[] = [];
  for (const account of accounts) {
    const url = new URL(`${base(apis.businessInfoUrl)}/v1/${account.name}/locations`);
    url.searchParams.set('readMask', 'name,title');
    url.searchParams.set('pageSize', '100');
    for (const page of await pages(url, LocationsSchema, 'the Google locations list', tokens, http))
      for (const l of page.locations ?? []) found.push({ name: `${account.name}/${l.name}`, title: l.title ?? '' });
  }
  return found;
}
