import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGoogleConnector } from '../../src/sync/google-connector.js';
import { createAccessTokens } from '../../src/sync/google-oauth.js';
import { PlatformError, type PlatformHttpOptions } from '../../src/sync/platform-http.js';
import { fromTrustpilotReview } from '../../src/import/profiles/trustpilot.js';
import { listedRecords } from '../../src/import/raw-records.js';
import { createTrustpilotConnector } from '../../src/sync/trustpilot-connector.js';
import {
  FakeGoogle,
  FakeTrustpilot,
  GOOGLE_CLIENT,
  GOOGLE_LOCATION,
  GOOGLE_REFRESH,
  TRUSTPILOT_KEY,
  TRUSTPILOT_UNIT,
  googleReview,
  trustpilotReview,
} from '../support/fake-platforms.js';

const SECRETS = [GOOGLE_CLIENT.secret, GOOGLE_REFRESH, 'NEVER-PRINT', TRUSTPILOT_KEY];
const waits: number[] = [];
const http: PlatformHttpOptions = {
  timeoutMs: 2000,
  tries: 3,
  baseDelayMs: 100,
  maxDelayMs: 30_000,
  sleep: async (ms) => void waits.push(ms),
};

function expectNoSecret(e: unknown) {
  const text = `${(e as Error).message} ${JSON.stringify(e)}`;
  for (const s of SECRETS) expect(text).not.toContain(s);
}

describe('Google Business Profile connector (contract §3.2)', () => {
  let google: FakeGoogle;
  let clock: number;
  let refresh: string | null;
  const connector = () => {
    const tokens = createAccessTokens(
      { tokenUrl: new URL(`${google.url}/token`), clientId: GOOGLE_CLIENT.id, clientSecret: GOOGLE_CLIENT.secret },
      async () => refresh,
      http,
      () => clock,
    );
    return { tokens, google: createGoogleConnector({ apiUrl: new URL(google.url), location: GOOGLE_LOCATION, tokens, http }) };
  };
  beforeEach(async () => {
    google = await new FakeGoogle().start();
    for (let i = 1; i <= 120; i++) google.add(googleReview(i));
    clock = 1_000_000;
    refresh = GOOGLE_REFRESH;
    waits.length = 0;
  });
  afterEach(() => google.stop());

  it('lists every page with pageSize 50 and a bearer token, mapping each review as the Takeout import does', async () => {
    const { google: c } = connector();
    const listing = await c.list();
    expect(listing.pages).toBe(3);
    expect(listing.reviews).toHaveLength(120);
    const file = listedRecords(c.profile, listing.reviews);
    expect(file.problems).toEqual([]);
    const lists = google.lists();
    expect(lists.map((e) => e.query.pageSize)).toEqual(['50', '50', '50']);
    expect(lists[0]!.query.pageToken).toBeUndefined();
    expect(lists.every((e) => /^Bearer ya29\./.test(String(e.headers.authorization)))).toBe(true);
    expect(google.tokenRequests()).toHaveLength(1);
    const form = new URLSearchParams(google.tokenRequests()[0]!.body);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: GOOGLE_REFRESH,
      client_id: GOOGLE_CLIENT.id,
      client_secret: GOOGLE_CLIENT.secret,
    });
    const first = file.records.find((r) => (r.value as { id: string }).id === 'AbFvOqTest00001')!.value;
    expect(first).toMatchObject({
      id: 'AbFvOqTest00001',
      rating: 2,
      date: '2025-01-02',
      text: 'Review 1: the plumber fixed the leak and explained the repair.',
      author: { name: 'Reviewer 1', location: null },
      source: { platform: 'google', url: null },
      verified: true,
      response: { text: 'Thanks, reviewer 1!', date: '2025-01-02' },
    });
  });

  it('reuses the access token until shortly before it expires, then asks for a new one', async () => {
    const { google: c } = connector();
    await c.list();
    clock += 3_500_000; // 58 min 20 s of 59 min 59 s: still good
    await c.list();
    expect(google.tokenRequests()).toHaveLength(1);
    clock += 60_000; // within a minute of expiry
    await c.list();
    expect(google.tokenRequests()).toHaveLength(2);
  });

  it('a 401 gets one fresh token and the listing goes on; a second 401 fails', async () => {
    const { google: c } = connector();
    await c.list();
    google.revokeTokens = true;
    const listing = await c.list();
    expect(listing.reviews).toHaveLength(120);
    expect(google.tokenRequests()).toHaveLength(2);
    google.faults.set(1, { status: 401, times: 2 });
    const err = await c.list().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(google.tokenRequests()).toHaveLength(3);
  });

  it('a 500 on page 2 that retries do not cure fails the listing; a 429 with Retry-After is waited out', async () => {
    const { google: c } = connector();
    google.faults.set(2, { status: 500 });
    await expect(c.list()).rejects.toThrow('the Google reviews list answered HTTP 500 (3 tries)');
    google.faults.set(2, { status: 429, headers: { 'retry-after': '2' }, times: 1 });
    waits.length = 0;
    expect((await c.list()).reviews).toHaveLength(120);
    expect(waits).toEqual([2000]);
  });

  it('a malformed page or a repeated page token fails the listing', async () => {
    const { google: c } = connector();
    google.faults.set(2, { status: 200, body: '{"reviews": 5}', times: 1 });
    await expect(c.list()).rejects.toMatchObject({ code: 'malformed' });
    google.faults.set(2, { status: 200, body: '{"reviews": [', times: 1 });
    await expect(c.list()).rejects.toThrow(/not JSON/);
    google.repeatToken = true;
    await expect(c.list()).rejects.toThrow('the Google reviews list repeated a page token on page 2');
  });

  it('a refused refresh token, a wrong client or no token says what to do and never the secret', async () => {
    refresh = 'revoked-NEVER-PRINT';
    let err = await connector()
      .google.list()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect((err as Error).message).toBe(
      'the Google token endpoint refused the request with HTTP 400 (invalid_grant): the refresh token was revoked or expired; run `review-data connect google` again',
    );
    expectNoSecret(err);
    refresh = null;
    err = await connector()
      .google.list()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'not_connected' });
    refresh = GOOGLE_REFRESH;
    const tokens = createAccessTokens(
      { tokenUrl: new URL(`${google.url}/token`), clientId: GOOGLE_CLIENT.id, clientSecret: 'wrong-NEVER-PRINT' },
      async () => refresh,
      http,
    );
    err = await tokens.current().catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/HTTP 401 \(invalid_client\): check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
    expectNoSecret(err);
  });

  it('an empty location lists no reviews (Google leaves `reviews` out)', async () => {
    google.emptyListing = true;
    const listing = await connector().google.list();
    expect(listing).toEqual({ pages: 1, reviews: [] });
  });

  it('reads a review the listing missed one by one: there, or gone (404)', async () => {
    const { google: c } = connector();
    google.unlisted.add('AbFvOqTest00007');
    expect((await c.list()).reviews).toHaveLength(119);
    const found = await c.stillThere(['AbFvOqTest00007', 'AbFvOqTest99999']);
    expect(found).toEqual([google.reviews.get('AbFvOqTest00007')]);
    const gets = google.log.filter((e) => e.path.includes('/reviews/'));
    expect(gets.map((e) => e.path)).toEqual([
      `/v4/${GOOGLE_LOCATION}/reviews/AbFvOqTest00007`,
      `/v4/${GOOGLE_LOCATION}/reviews/AbFvOqTest99999`,
    ]);
    expect(gets.every((e) => /^Bearer ya29\./.test(String(e.headers.authorization)))).toBe(true);
  });
});

describe('Trustpilot connector (contract §3.2)', () => {
  let tp: FakeTrustpilot;
  const connector = () =>
    createTrustpilotConnector({ apiUrl: new URL(tp.url), businessUnitId: TRUSTPILOT_UNIT, apiKey: TRUSTPILOT_KEY, http });
  beforeEach(async () => {
    tp = await new FakeTrustpilot().start();
  });
  afterEach(() => tp.stop());

  it('pages with perPage 100 and the apikey header until a page comes back short', async () => {
    for (let i = 0; i < 250; i++) tp.reviews.push(trustpilotReview(i));
    const listing = await connector().list();
    expect(listing.pages).toBe(3);
    expect(listing.reviews).toHaveLength(250);
    // Oldest first: a review written while the pages are read lands on the last page.
    expect(tp.lists().map((e) => [e.query.perPage, e.query.page, e.query.orderBy, e.headers.apikey])).toEqual([
      ['100', '1', 'createdat.asc', TRUSTPILOT_KEY],
      ['100', '2', 'createdat.asc', TRUSTPILOT_KEY],
      ['100', '3', 'createdat.asc', TRUSTPILOT_KEY],
    ]);
    expect((listing.reviews[0] as { id: string }).id).toBe(trustpilotReview(0).id);
    tp.unlisted.add(String(trustpilotReview(5).id));
    expect(await connector().stillThere([String(trustpilotReview(5).id), 'gone'])).toEqual([trustpilotReview(5)]);
    tp.unlisted.clear();
    tp.reviews.length = 200;
    expect((await connector().list()).pages).toBe(3);
  });

  it('maps a review with the import’s Trustpilot profile: platform trustpilot, verified, the reply and its date', () => {
    expect(fromTrustpilotReview(trustpilotReview(1))).toEqual({
      value: {
        id: '64a1b2c3d4e5f6a7b8c90001',
        rating: 2,
        title: 'Visit 1',
        text: 'Trustpilot review 1: the engineer was on time.',
        language: 'en',
        date: '2025-03-02',
        author: { name: 'Trusty 1', location: null },
        source: { platform: 'trustpilot', url: 'https://www.trustpilot.com/reviews/64a1b2c3d4e5f6a7b8c90001' },
        verified: true,
        response: { text: 'Thank you 1', date: '2025-03-02' },
      },
      problems: [],
    });
    expect(fromTrustpilotReview({ id: 'x', stars: 9 }).problems.length).toBeGreaterThan(0);
  });

  it('a page that repeats, a wrong key or a failing page fails the listing without the key', async () => {
    for (let i = 0; i < 150; i++) tp.reviews.push(trustpilotReview(i));
    tp.ignorePage = true;
    await expect(connector().list()).rejects.toThrow('the Trustpilot reviews list answered page 2 with a page it gave before');
    tp.ignorePage = false;
    tp.faults.set(2, { status: 502 });
    await expect(connector().list()).rejects.toMatchObject({ code: 'http_status', status: 502 });
    const wrong = createTrustpilotConnector({ apiUrl: new URL(tp.url), businessUnitId: TRUSTPILOT_UNIT, apiKey: 'nope-NEVER-PRINT', http });
    const err = await wrong.list().catch((e: unknown) => e);
    expect((err as Error).message).toBe('the Trustpilot reviews list answered HTTP 401: check TRUSTPILOT_API_KEY');
    expectNoSecret(err);
  });
});
