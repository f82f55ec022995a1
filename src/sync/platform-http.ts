import { setTimeout as delay } from 'node:timers/promises';

/**
 * Why a platform request failed, as a stable code and a message for the operator. Messages name the
 * endpoint by what it is ("the Google reviews list"), never by URL, header or body: those carry tokens
 * (contract §3.2, "Secrets stay secret").
 */
export type PlatformErrorCode = 'timeout' | 'network' | 'http_status' | 'rate_limited' | 'malformed' | 'unauthorized' | 'not_connected';

export class PlatformError extends Error {
  override name = 'PlatformError';
  constructor(
    readonly code: PlatformErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface PlatformHttpOptions {
  /** Each attempt's limit, headers and body together. */
  timeoutMs: number;
  /** Attempts per request (contract §3.2: up to 3). */
  tries: number;
  /** The first backoff delay; each retry doubles it, with jitter. */
  baseDelayMs: number;
  /** A longer wait (a `Retry-After` of minutes) fails the run instead: the next interval retries. */
  maxDelayMs: number;
  /** Ends waits and requests when the server shuts down. */
  signal?: AbortSignal;
  /** Injected in tests; `Math.random` and a timer otherwise. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface PlatformRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers?: Record<string, string>;
  /** `application/x-www-form-urlencoded` body (the OAuth token endpoint). */
  form?: URLSearchParams;
  /** How messages name the endpoint: "the Google reviews list". */
  what: string;
}

export interface PlatformResponse {
  status: number;
  /** The parsed JSON body of a 2xx answer; of another status, whatever JSON it had, else null. */
  body: unknown;
}

/** A page of reviews is tens of kilobytes; a body this large is not one (and would cost memory). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

const RETRYABLE = (status: number) => status === 429 || (status >= 500 && status <= 599);

/** `Retry-After` as milliseconds from now (RFC 9110 §10.2.3: delay-seconds or an HTTP-date). */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with jitter: half the doubled delay fixed, half random, so replicas spread out. */
export function backoffMs(attempt: number, options: Pick<PlatformHttpOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * (options.random ?? Math.random)());
}

async function readBody(response: Response, what: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES)
    throw new PlatformError('malformed', `${what} answered ${declared} bytes, more than a page of reviews can be`);
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new PlatformError('malformed', `${what} answered more than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One attempt: the status and body, or a PlatformError for a timeout or a network failure. */
async function attempt(
  request: PlatformRequest,
  options: PlatformHttpOptions,
): Promise<{ status: number; text: string; retryAfter: string | null }> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(request.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...request.headers,
      },
      ...(request.form ? { body: request.form.toString() } : {}),
      // An API answer is never a redirect; following one could send the bearer token elsewhere.
      redirect: 'manual',
      signal,
    });
    return { status: response.status, text: await readBody(response, request.what), retryAfter: response.headers.get('retry-after') };
  } catch (e) {
    if (e instanceof PlatformError) throw e;
    if (options.signal?.aborted) throw new PlatformError('network', `${request.what}: the request was cancelled (shutting down)`);
    if (timeout.aborted) throw new PlatformError('timeout', `${request.what} did not answer within ${options.timeoutMs} ms`);
    const cause = (e as { cause?: { code?: unknown } }).cause?.code;
    throw new PlatformError('network', `${request.what} could not be reached (${typeof cause === 'string' ? cause : 'network error'})`);
  }
}

/**
 * A platform request with the failure rule of contract §3.2: a timeout on every attempt, up to `tries`
 * attempts for a network error, a timeout, a 429 or a 5xx, waiting `Retry-After` when the platform gives
 * it and an exponential backoff with jitter otherwise. A 2xx must be JSON. Other statuses (401, 403, 404)
 * are returned for the caller to judge: a 401 means "refresh the token" to an OAuth client.
 */
export async function platformRequest(request: PlatformRequest, options: PlatformHttpOptions): Promise<PlatformResponse> {
  const sleep = options.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, signal ? { signal } : {}));
  for (let n = 1; ; n++) {
    let failure: PlatformError;
    let wait: number | undefined;
    try {
      const { status, text, retryAfter } = await attempt(request, options);
      if (status >= 200 && status <= 299) {
        const body = parseJson(text);
        if (body === undefined)
          throw new PlatformError('malformed', `${request.what} answered HTTP ${status} with a body that is not JSON`, status);
        return { status, body };
      }
      if (!RETRYABLE(status)) return { status, body: parseJson(text) ?? null };
      failure = new PlatformError(status === 429 ? 'rate_limited' : 'http_status', `${request.what} answered HTTP ${status}`, status);
      wait = retryAfterMs(retryAfter);
    } catch (e) {
      if (!(e instanceof PlatformError) || e.code === 'malformed' || options.signal?.aborted) throw e;
      failure = e;
    }
    if (n >= options.tries) throw new PlatformError(failure.code, `${failure.message} (${n} tries)`, failure.status);
    const ms = wait ?? backoffMs(n, options);
    if (ms > options.maxDelayMs)
      throw new PlatformError(
        failure.code,
        `${failure.message} and asked to wait ${Math.ceil(ms / 1000)} s: the next run tries again`,
        failure.status,
      );
    await sleep(ms, options.signal);
  }
}
