import { z } from 'zod';
import { PlatformError, platformRequest, type PlatformHttpOptions } from './platform-http.js';

/** The Business Profile API's scope (contract §3.2). */
export const GOOGLE_SCOPE = 'https://www.googleapis.com/auth/business.manage';

/** An access token is renewed this long before Google says it expires, so no request carries a dying one. */
const EXPIRY_MARGIN_MS = 60_000;

/** RFC 6749 §5.1: the token endpoint's success answer (Google adds `scope`, and `refresh_token` for a code). */
const TokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().optional(),
  token_type: z.string().optional(),
  refresh_token: z.string().min(1).optional(),
});

/** RFC 6749 §5.2: the error answer; `error` is a registered code (invalid_grant, invalid_client ...). */
const TokenErrorSchema = z.looseObject({ error: z.string() });

export interface GoogleClient {
  tokenUrl: URL;
  clientId: string;
  clientSecret: string;
}

/** Posts a grant to the token endpoint (RFC 6749 §4.1.3, §6) and checks the answer's shape. */
async function tokenRequest(client: GoogleClient, grant: Record<string, string>, http: PlatformHttpOptions, revokedHint: string) {
  const form = new URLSearchParams({ ...grant, client_id: client.clientId, client_secret: client.clientSecret });
  const answer = await platformRequest({ method: 'POST', url: client.tokenUrl, form, what: 'the Google token endpoint' }, http);
  if (answer.status === 200) {
    const token = TokenResponseSchema.safeParse(answer.body);
    if (!token.success) throw new PlatformError('malformed', 'the Google token endpoint answered without an access_token');
    return token.data;
  }
  // Only the registered error code is shown: the rest of an error body may echo what was sent.
  const error = TokenErrorSchema.safeParse(answer.body);
  const code = error.success && /^[\w.-]{1,64}$/.test(error.data.error) ? ` (${error.data.error})` : '';
  const hint =
    error.success && error.data.error === 'invalid_grant'
      ? `: the refresh token was revoked or expired; ${revokedHint}`
      : error.success && error.data.error === 'invalid_client'
        ? ': check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET'
        : '';
  throw new PlatformError(
    'unauthorized',
    `the Google token endpoint refused the request with HTTP ${answer.status}${code}${hint}`,
    answer.status,
  );
}

export interface AccessTokens {
  /** A valid access token: the last one until shortly before it expires, else a fresh one. */
  current(): Promise<string>;
  /** The platform refused `token` (a 401): the next `current()` asks for a new one. */
  invalidate(token: string): void;
}

/**
 * Access tokens from a refresh token (RFC 6749 §6), reused until shortly before `expires_in` (contract
 * §3.2). The refresh token is read each time one is needed, so a `connect google` made while the
 * server runs takes effect without a restart.
 */
export function createAccessTokens(
  client: GoogleClient,
  refreshToken: () => Promise<string | null>,
  http: PlatformHttpOptions,
  now: () => number = Date.now,
  /** What to do when Google refuses it: reconnect, or replace GOOGLE_REFRESH_TOKEN when that is where it came from. */
  revokedHint = 'run `review-data connect google` again',
): AccessTokens {
  let cached: { token: string; renewAt: number } | null = null;
  return {
    async current() {
      if (cached && now() < cached.renewAt) return cached.token;
      const refresh = await refreshToken();
      if (!refresh)
        throw new PlatformError(
          'not_connected',
          'Google is not connected: set GOOGLE_REFRESH_TOKEN, or run `review-data connect google` once to store one',
        );
      const answer = await tokenRequest(client, { grant_type: 'refresh_token', refresh_token: refresh }, http, revokedHint);
      const lifetime = (answer.expires_in ?? 3600) * 1000;
      cached = { token: answer.access_token, renewAt: now() + Math.max(0, lifetime - EXPIRY_MARGIN_MS) };
      return cached.token;
    },
    invalidate(token) {
      if (cached?.token === token) cached = null;
    },
  };
}

/**
 * The authorization code grant of the installed-app flow (RFC 6749 §4.1.3 with PKCE, RFC 7636): the
 * refresh token Google gives for offline access. Google gives one only with `access_type=offline`.
 */
export async function exchangeCode(
  client: GoogleClient,
  code: { code: string; redirectUri: string; verifier: string },
  http: PlatformHttpOptions,
): Promise<{ refreshToken: string }> {
  const answer = await tokenRequest(
    client,
    { grant_type: 'authorization_code', code: code.code, redirect_uri: code.redirectUri, code_verifier: code.verifier },
    http,
    'run `review-data connect google` again',
  );
  if (!answer.refresh_token)
    throw new PlatformError(
      'unauthorized',
      'Google gave no refresh token: remove this app under https://myaccount.google.com/permissions and connect again',
    );
  return { refreshToken: answer.refresh_token };
}
