import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Fakes of the platforms' documented endpoints, on loopback, for the sync tests (contract §3.2). Nothing
 * here reaches the internet. Each records the requests it answered and can be told to misbehave the ways
 * real platforms do: 401 on a revoked token, 429 with Retry-After, 500 on one page, a malformed body, a
 * repeated page token, a slow page.
 */

export interface Logged {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
  status?: number;
  /** When it arrived (ms since the epoch). */
  at: number;
}

abstract class FakeServer {
  readonly log: Logged[] = [];
  url = '';
  private server: http.Server | null = null;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const u = new URL(req.url ?? '/', 'http://fake');
        const entry: Logged = {
          method: req.method ?? 'GET',
          path: u.pathname,
          query: Object.fromEntries(u.searchParams),
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.log.push(entry);
        const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          entry.status = status;
          if (res.destroyed) return;
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
          res.end(typeof body === 'string' ? body : JSON.stringify(body));
        };
        Promise.resolve(this.handle(entry, send)).catch((e: unknown) => send(599, { error: String(e) }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  protected abstract handle(
    entry: Logged,
    send: (status: number, body: unknown, headers?: Record<string, string>) => void,
  ): void | Promise<void>;
}

export const GOOGLE_LOCATION = 'accounts/1029384756/locations/5647382910';
export const GOOGLE_CLIENT = { id: 'test-client.apps.example', secret: 'test-client-secret-NEVER-PRINT' };
export const GOOGLE_REFRESH = '1//test-refresh-NEVER-PRINT';
const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'];

/** A Business Profile API `Review` (accounts.locations.reviews). */
export function googleReview(i: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  const id = `AbFvOqTest${String(i).padStart(5, '0')}`;
  const day = new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  const r: Record<string, unknown> = {
    name: `${GOOGLE_LOCATION}/reviews/${id}`,
    reviewId: id,
    reviewer: { displayName: `Reviewer ${i}`, profilePhotoUrl: `https://lh3.example/a/${i}` },
    starRating: STARS[i % 5],
    comment: `Review ${i}: the plumber fixed the leak and explained the repair.`,
    createTime: `${day}T15:00:00Z`,
    updateTime: `${day}T15:00:00Z`,
  };
  if (i % 7 === 3) r.reviewer = { displayName: 'A Google user', isAnonymous: true };
  if (i % 4 === 1) r.reviewReply = { comment: `Thanks, reviewer ${i}!`, updateTime: `${day}T18:00:00Z` };
  return { ...r, ...over };
}

/** Google's token endpoint (refresh and authorization-code grants, with PKCE) and the v4 reviews list. */
export class FakeGoogle extends FakeServer {
  readonly reviews = new Map<string, Record<string, unknown>>();
  readonly issued = new Set<string>();
  private seq = 0;
  /** Per page number (1-based): what to answer instead of the page, each used once unless `sticky`. */
  readonly faults = new Map<number, { status: number; body?: unknown; headers?: Record<string, string>; times?: number }>();
  /** Answer 401 to every list request until a new token is issued. */
  revokeTokens = false;
  /** Answer every list request with the first page's token again (a platform paging in a circle). */
  repeatToken = false;
  /** Milliseconds to hold each page before answering it. */
  pageDelayMs = 0;
  /** Review ids the list leaves out while they still exist (a listing whose pages shifted). */
  readonly unlisted = new Set<string>();
  emptyListing = false;
  /** Codes the consent flow issued, with their PKCE challenge. */
  readonly codes = new Map<string, { challenge: string; redirectUri: string }>();
  refreshToken = GOOGLE_REFRESH;
  expiresIn = 3599;
  /** Before Google approves a project's Business Profile API access, its quota is 0: every call is a 429. */
  approved = true;

  add(...reviews: Record<string, unknown>[]): void {
    for (const r of reviews) this.reviews.set(String(r.reviewId), r);
  }
  lists(): Logged[] {
    return this.log.filter((e) => e.path.endsWith('/reviews'));
  }
  tokenRequests(): Logged[] {
    return this.log.filter((e) => e.path === '/token');
  }

  protected handle(entry: Logged, send: (status: number, body: unknown, headers?: Record<string, string>) => void) {
    if (entry.method === 'POST' && entry.path === '/token') return this.token(entry, send);
    if (entry.method === 'GET' && entry.path === `/v4/${GOOGLE_LOCATION}/reviews`) return this.list(entry, send);
    if (entry.method === 'GET' && entry.path.startsWith(`/v4/${GOOGLE_LOCATION}/reviews/`)) {
      const token = String(entry.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      if (!this.issued.has(token) || this.revokeTokens) return send(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
      const review = this.reviews.get(decodeURIComponent(entry.path.split('/').pop()!));
      return review
        ? send(200, review)
        : send(404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
    }
    const [, account, location] = /^(accounts\/\d+)\/(locations\/\d+)$/.exec(GOOGLE_LOCATION)!;
    if (entry.method === 'GET' && (entry.path === '/v1/accounts' || entry.path === `/v1/${account}/locations`)) {
      const token = String(entry.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      if (!this.issued.has(token)) return send(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
      if (!this.approved)
        return send(429, {
          error: {
            code: 429,
            message:
              "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'mybusinessaccountmanagement.googleapis.com': 0",
            status: 'RESOURCE_EXHAUSTED',
          },
        });
      if (entry.path === '/v1/accounts')
        return send(200, { accounts: [{ name: account, accountName: 'Test Plumbing', type: 'PERSONAL' }] });
      if (entry.query.readMask !== 'name,title') return send(400, { error: { code: 400, message: 'readMask is required' } });
      return send(200, { locations: [{ name: location, title: 'Test Plumbing, Main St' }] });
    }
    send(404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
  }

  private token(entry: Logged, send: (status: number, body: unknown) => void) {
    const form = new URLSearchParams(entry.body);
    const client = form.get('client_id') === GOOGLE_CLIENT.id && form.get('client_secret') === GOOGLE_CLIENT.secret;
    if (!client)
      return send(401, { error: 'invalid_client', error_description: `The OAuth client was not found: ${form.get('client_secret')}` });
    const issue = (extra: Record<string, unknown> = {}) => {
      const token = `ya29.test-access-${++this.seq}-NEVER-PRINT`;
      this.issued.add(token);
      this.revokeTokens = false;
      send(200, {
        access_token: token,
        expires_in: this.expiresIn,
        scope: 'https://www.googleapis.com/auth/business.manage',
        token_type: 'Bearer',
        ...extra,
      });
    };
    if (form.get('grant_type') === 'refresh_token') {
      if (form.get('refresh_token') !== this.refreshToken)
        return send(400, { error: 'invalid_grant', error_description: `Token has been expired or revoked: ${form.get('refresh_token')}` });
      return issue();
    }
    if (form.get('grant_type') === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const ok =
        code &&
        code.redirectUri === form.get('redirect_uri') &&
        createHash('sha256').update(verifier).digest('base64url') === code.challenge;
      if (!ok) return send(400, { error: 'invalid_grant', error_description: 'Bad Request' });
      this.codes.delete(form.get('code')!);
      return issue({ refresh_token: this.refreshToken });
    }
    send(400, { error: 'unsupported_grant_type' });
  }

  private async list(entry: Logged, send: (status: number, body: unknown, headers?: Record<string, string>) => void) {
    const token = String(entry.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    if (!this.issued.has(token) || this.revokeTokens)
      return send(401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
    const size = Math.min(Number(entry.query.pageSize ?? 50), 50);
    const page = entry.query.pageToken ? Number(Buffer.from(entry.query.pageToken, 'base64url').toString().replace('page-', '')) : 1;
    if (this.pageDelayMs) await new Promise((r) => setTimeout(r, this.pageDelayMs));
    const fault = this.faults.get(page);
    if (fault) {
      if (fault.times !== undefined && --fault.times <= 0) this.faults.delete(page);
      return send(
        fault.status,
        fault.body ?? { error: { code: fault.status, message: 'Internal error encountered.', status: 'INTERNAL' } },
        fault.headers,
      );
    }
    const all = this.emptyListing ? [] : [...this.reviews.values()].filter((r) => !this.unlisted.has(String(r.reviewId)));
    const slice = all.slice((page - 1) * size, page * size);
    const out: Record<string, unknown> = { reviews: slice, totalReviewCount: all.length, averageRating: 4.2 };
    const next = this.repeatToken ? 2 : page + 1;
    if (this.repeatToken || page * size < all.length) out.nextPageToken = Buffer.from(`page-${next}`).toString('base64url');
    if (slice.length === 0) delete out.reviews;
    send(200, out);
  }
}

export const TRUSTPILOT_UNIT = '5f3c2b1a0d9e8f7a6b5c4d3e';
export const TRUSTPILOT_KEY = 'tp-api-key-NEVER-PRINT';

/** A review of Trustpilot's public reviews endpoint (GET /v1/business-units/{id}/reviews). */
export function trustpilotReview(i: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  const day = new Date(Date.UTC(2025, 2, 1) + i * 86_400_000).toISOString().slice(0, 10);
  return {
    id: `64a1b2c3d4e5f6a7b8c9${String(i).padStart(4, '0')}`,
    consumer: {
      id: `5e${i}`,
      displayName: `Trusty ${i}`,
      displayLocation: i % 3 === 0 ? 'Leeds, GB' : null,
      countryCode: i % 3 === 0 ? 'GB' : null,
      numberOfReviews: 3,
    },
    stars: (i % 5) + 1,
    title: `Visit ${i}`,
    text: `Trustpilot review ${i}: the engineer was on time.`,
    language: 'en',
    createdAt: `${day}T10:20:30.000Z`,
    updatedAt: null,
    isVerified: true,
    companyReply: i % 3 === 1 ? { text: `Thank you ${i}`, createdAt: `${day}T16:00:00.000Z`, updatedAt: null } : null,
    ...over,
  };
}

/** Trustpilot's public reviews endpoint, `perPage`/`page` paging, `apikey` header. */
export class FakeTrustpilot extends FakeServer {
  readonly reviews: Record<string, unknown>[] = [];
  readonly faults = new Map<number, { status: number; body?: unknown; headers?: Record<string, string> }>();
  /** Ignore `page` and answer page 1 again (a platform paging in a circle). */
  ignorePage = false;

  lists(): Logged[] {
    return this.log.filter((e) => e.path.endsWith('/reviews'));
  }

  /** Review ids the list leaves out while they still exist (a listing whose pages shifted). */
  readonly unlisted = new Set<string>();

  protected handle(entry: Logged, send: (status: number, body: unknown, headers?: Record<string, string>) => void) {
    if (entry.headers.apikey !== TRUSTPILOT_KEY && entry.method === 'GET' && entry.path.startsWith('/v1/'))
      return send(401, { message: 'Invalid ApiKey' });
    if (entry.method === 'GET' && entry.path.startsWith('/v1/reviews/')) {
      const review = this.reviews.find((r) => r.id === decodeURIComponent(entry.path.split('/').pop()!));
      return review ? send(200, review) : send(404, { message: 'Not found' });
    }
    if (entry.method !== 'GET' || entry.path !== `/v1/business-units/${TRUSTPILOT_UNIT}/reviews`)
      return send(404, { message: 'Not found' });
    const perPage = Math.min(Number(entry.query.perPage ?? 20), 100);
    const page = this.ignorePage ? 1 : Number(entry.query.page ?? 1);
    const fault = this.faults.get(page);
    if (fault) return send(fault.status, fault.body ?? { message: 'error' }, fault.headers);
    // Trustpilot lists newest first unless asked otherwise (orderBy=createdat.asc).
    const ordered = this.reviews.filter((r) => !this.unlisted.has(String(r.id)));
    if (entry.query.orderBy !== 'createdat.asc') ordered.reverse();
    send(200, { reviews: ordered.slice((page - 1) * perPage, page * perPage), links: [] });
  }
}
