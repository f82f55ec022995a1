import dns from 'node:dns';
import fs from 'node:fs';
import { isIP, type LookupFunction } from 'node:net';
import tls from 'node:tls';
import type * as UndiciModule from 'undici';
import type { Agent, buildConnector } from 'undici';
import { isPublicAddress } from './address-policy.js';

export interface CallbackClientOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** PEM file of extra CAs, trusted in addition to Node's bundled roots (contract §6 WEBSUB_CA_FILE). */
  caFile?: string | undefined;
  /** How undici is loaded: `import('undici')`, or a slower start in tests. */
  load?: () => Promise<typeof UndiciModule>;
}

export type CallbackResponse = { ok: true; status: number; body: string } | { ok: false; error: string };

export interface CallbackClient {
  /** A GET whose body (up to a few KiB) is read: verification of intent (WebSub §5.3). */
  get(url: string, signal?: AbortSignal): Promise<CallbackResponse>;
  /** A POST whose response body is ignored (WebSub §7: it MUST be ignored), drained up to a cap. */
  post(url: string, body: Buffer, headers: Record<string, string>, signal?: AbortSignal): Promise<CallbackResponse>;
  close(): Promise<void>;
}

/** A verification answer is the challenge: anything much longer is not one. */
const MAX_GET_BODY = 4096;
const MAX_DRAIN = 64 * 1024;

export class CallbackRefusedError extends Error {
  readonly code = 'ERR_WEBSUB_CALLBACK_ADDRESS';
}

/**
 * DNS lookup that only returns public addresses (contract §6). Used by the socket itself, so the check
 * holds at connection time: a name that resolves to a public address when the request is accepted and
 * to 127.0.0.1 later (DNS rebinding) is still refused.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const allowed = addresses.filter((a) => isPublicAddress(a.address));
    const first = allowed[0];
    if (!first) return callback(new CallbackRefusedError(`${hostname} resolves to no public address`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
    callback(null, first.address, first.family);
  });
};

type Undici = typeof UndiciModule;

function connector(build: Undici['buildConnector'], options: CallbackClientOptions): buildConnector.connector {
  const extraCa = options.caFile ? fs.readFileSync(options.caFile, 'utf8') : undefined;
  // One secure context for every connection: passing `ca` instead would parse the whole root store
  // again on each TLS connect, hundreds of milliseconds of blocked event loop on a small machine.
  const secureContext = extraCa ? tls.createSecureContext({ ca: [...tls.rootCertificates, extraCa] }) : undefined;
  const base = build({
    timeout: options.timeoutMs,
    ...(secureContext ? { secureContext } : {}),
    ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
  });
  if (options.allowPrivate) return base;
  return (opts, callback) => {
    // An IP literal skips DNS, so the lookup above never sees it: judge it here.
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !isPublicAddress(host)) {
      callback(new CallbackRefusedError(`${host} is not a public address`), null);
      return;
    }
    base(opts, callback);
  };
}

function describe(error: unknown): string {
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  return e.code ?? e.cause?.code ?? e.name ?? String(error);
}

/**
 * HTTP client for callbacks: undici with our own connector (address policy, extra CAs), a timeout on
 * every phase, no redirects (undici's request() never follows them; WebSub §7: a redirect is a failure),
 * capped response bodies.
 */
export function createCallbackClient(options: CallbackClientOptions): CallbackClient {
  // undici is loaded with the first callback, not at start-up: it is a tenth of the server's start-up
  // CPU, and most servers make no callback for a while, or ever.
  let client: Promise<{ undici: Undici; agent: Agent }> | null = null;
  const ready = () =>
    (client ??= (options.load ?? (() => import('undici')))().then((undici) => ({
      undici,
      agent: new undici.Agent({
        connect: connector(undici.buildConnector, options),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        keepAliveTimeout: 10_000,
      }),
    })));

  async function send(
    method: 'GET' | 'POST',
    url: string,
    init: { body?: Buffer; headers?: Record<string, string>; signal?: AbortSignal | undefined },
    readBody: boolean,
  ): Promise<CallbackResponse> {
    let loaded: Awaited<ReturnType<typeof ready>>;
    try {
      loaded = await ready();
    } catch (error) {
      return { ok: false, error: describe(error) };
    }
    // The timeout is the callback's (contract §6), so it starts once the client is loaded: loading it,
    // seconds on a busy machine at a process's first callback, must not fail a verification or count
    // as a subscriber's failed delivery.
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = init.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
    try {
      const { undici, agent } = loaded;
      const res = await undici.request(url, {
        method,
        dispatcher: agent,
        signal,
        headers: { 'user-agent': 'review-data-websub-hub', ...init.headers },
        ...(init.body ? { body: init.body } : {}),
      });
      if (!readBody) {
        await res.body.dump({ limit: MAX_DRAIN }).catch(() => {});
        return { ok: true, status: res.statusCode, body: '' };
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_GET_BODY) {
          res.body.destroy();
          return { ok: true, status: res.statusCode, body: '' };
        }
        chunks.push(chunk);
      }
      return { ok: true, status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      return { ok: false, error: timeout.aborted ? 'timeout' : describe(error) };
    }
  }

  return {
    get: (url, signal) => send('GET', url, { signal }, true),
    post: (url, body, headers, signal) => send('POST', url, { body, headers, signal }, false),
    close: async () => {
      if (client) await (await client).agent.close();
    },
  };
}
