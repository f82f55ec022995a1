import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GOOGLE_SCOPE } from './google-oauth.js';

/** What the consent page sends back to the loopback listener (RFC 8252 §7.3, RFC 6749 §4.1.2). */
export type ConsentResult = { ok: true; code: string; redirectUri: string; verifier: string } | { ok: false; reason: string };

export interface ConsentFlow {
  /** The URL the owner opens to consent. */
  url: string;
  redirectUri: string;
  /** Resolves when the browser comes back (or the wait ends); the listener is closed by then. */
  result: Promise<ConsentResult>;
  close(): Promise<void>;
}

const base64url = (b: Buffer) => b.toString('base64url');

const PAGE = (title: string, text: string) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><body style="font:16px system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * The installed-app flow for a command-line tool (RFC 8252, "OAuth 2.0 for Native Apps", as Google
 * documents it for desktop clients): a listener on a loopback port receives the redirect, PKCE (RFC 7636,
 * S256) binds the code to this process, and `state` to this attempt. `access_type=offline` and
 * `prompt=consent` make Google return a refresh token every time.
 */
export async function startConsentFlow(options: { authUrl: URL; clientId: string; port: number; timeoutMs: number }): Promise<ConsentFlow> {
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  const state = base64url(randomBytes(16));
  let settle!: (r: ConsentResult) => void;
  const result = new Promise<ConsentResult>((resolve) => (settle = resolve));

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/' || (!url.searchParams.has('code') && !url.searchParams.has('error'))) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    const html = (status: number, title: string, text: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE(title, text));
    if (url.searchParams.get('state') !== state) {
      html(400, 'Not this request', 'This answer belongs to another attempt. Run the command again.');
      return;
    }
    const error = url.searchParams.get('error');
    if (error) {
      html(200, 'Not connected', 'Google sent no permission. You can close this tab and run the command again.');
      settle({ ok: false, reason: `Google answered ${/^[\w.-]{1,64}$/.test(error) ? error : 'an error'}: consent was not given` });
      return;
    }
    html(
      200,
      'Permission received',
      'Review Data Service received Google’s answer. Return to the terminal: it says whether the connection worked.',
    );
    settle({ ok: true, code: url.searchParams.get('code') ?? '', redirectUri, verifier });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const url = new URL(options.authUrl);
  for (const [k, v] of Object.entries({
    client_id: options.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: GOOGLE_SCOPE,
    access_type: 'offline',
    prompt: 'consent',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  }))
    url.searchParams.set(k, v);

  const timer = setTimeout(
    () => settle({ ok: false, reason: `no answer from the browser within ${Math.round(options.timeoutMs / 1000)} s` }),
    options.timeoutMs,
  );
  const close = () =>
    new Promise<void>((resolve) => {
      clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: url.toString(),
    redirectUri,
    result: result.then(async (r) => {
      await close();
      return r;
    }),
    close,
  };
}
