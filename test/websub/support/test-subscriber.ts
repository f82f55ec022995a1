import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestPki } from './test-pki.js';

export interface SubscriberEvent {
  name: string | null;
  proto: 'http' | 'https';
  method: string;
  url: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export interface Behaviour {
  /** How to answer verification GETs: echo the challenge, send a wrong one, 404, or redirect. */
  verify?: 'echo' | 'wrong' | 'notfound';
  /** Status for notifications; a function gets the number of notifications seen before this one. */
  notify?: number | ((n: number) => number);
  /** Notifications whose answer is held back until `release()` (a subscriber that is slow or gone). */
  hold?: boolean;
  /** Send a Location header with 3xx statuses. */
  location?: string;
}

/** A WebSub subscriber for tests: HTTPS (the test CA's certificate) plus a plain-HTTP twin. */
export class TestSubscriber {
  readonly events: SubscriberEvent[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly held: (() => void)[] = [];
  private readonly https: https.Server;
  private readonly http: http.Server;
  httpsPort = 0;
  httpPort = 0;

  constructor(pki: TestPki) {
    this.https = https.createServer({ key: pki.keyPem, cert: pki.certPem + pki.caPem }, (q, s) => void this.handle('https', q, s));
    this.http = http.createServer((q, s) => void this.handle('http', q, s));
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.https.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => this.http.listen(0, '127.0.0.1', r));
    this.httpsPort = (this.https.address() as AddressInfo).port;
    this.httpPort = (this.http.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.release();
    this.https.closeAllConnections();
    this.http.closeAllConnections();
    await Promise.all([new Promise((r) => this.https.close(r)), new Promise((r) => this.http.close(r))]);
  }

  /** A callback URL with a query string of its own, which the hub must keep. */
  callback(name: string, behaviour: Behaviour = {}, opts: { plainHttp?: boolean; host?: string } = {}): string {
    this.behaviours.set(name, { verify: 'echo', notify: 204, ...behaviour });
    const port = opts.plainHttp ? this.httpPort : this.httpsPort;
    return `${opts.plainHttp ? 'http' : 'https'}://${opts.host ?? '127.0.0.1'}:${port}/cb/${encodeURIComponent(name)}?sub=${encodeURIComponent(name)}&token=t-${encodeURIComponent(name)}`;
  }

  set(name: string, patch: Behaviour): void {
    this.behaviours.set(name, { ...this.behaviours.get(name), ...patch });
  }

  release(): void {
    for (const r of this.held.splice(0)) r();
  }

  of(name: string, method?: string): SubscriberEvent[] {
    return this.events.filter((e) => e.name === name && (!method || e.method === method));
  }
  verifications(name: string, mode?: string): SubscriberEvent[] {
    return this.of(name, 'GET').filter((e) => !mode || e.query.get('hub.mode') === mode);
  }
  notifications(name: string): SubscriberEvent[] {
    return this.of(name, 'POST');
  }

  async waitFor(name: string, predicate: (events: SubscriberEvent[]) => boolean, timeoutMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (predicate(this.of(name))) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return predicate(this.of(name));
  }

  private async handle(proto: 'http' | 'https', req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url ?? '/', `${proto}://127.0.0.1`);
    const m = /^\/cb\/([^/]+)$/.exec(u.pathname);
    const name = m?.[1] ? decodeURIComponent(m[1]) : null;
    const event = {
      name,
      proto,
      method: req.method ?? '',
      url: req.url ?? '',
      query: u.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks),
      at: Date.now(),
    };
    const b = name ? this.behaviours.get(name) : undefined;
    if (!b) return void res.writeHead(404).end();
    if (req.method === 'GET') {
      this.events.push(event);
      return this.answerVerification(b, u.searchParams, res);
    }
    if (req.method === 'POST') return this.answerNotification(b, event, res);
    res.writeHead(405).end();
  }

  private answerVerification(b: Behaviour, query: URLSearchParams, res: http.ServerResponse): void {
    const challenge = query.get('hub.challenge');
    if (query.get('hub.mode') === 'denied') return void res.writeHead(200).end('ok');
    if (b.verify === 'notfound' || challenge === null) return void res.writeHead(404).end('no');
    res.writeHead(200, { 'content-type': 'text/plain' }).end(b.verify === 'wrong' ? `not-${challenge}` : challenge);
  }

  private async answerNotification(b: Behaviour, event: SubscriberEvent, res: http.ServerResponse): Promise<void> {
    const n = this.notifications(event.name ?? '').length;
    this.events.push(event);
    if (b.hold) await new Promise<void>((r) => this.held.push(r));
    const status = typeof b.notify === 'function' ? b.notify(n) : (b.notify ?? 204);
    res.writeHead(status, b.location ? { location: b.location } : {}).end(status < 300 ? '' : 'nope');
  }
}
