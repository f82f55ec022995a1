import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestPki } from './test-ca.js';

export interface ReceivedDelivery {
  path: string;
  at: number;
  contentType: string | undefined;
  link: string | undefined;
  signature: string | undefined;
  body: string;
}

export interface TestSubscriber {
  /** `https://127.0.0.1:<port>/<name>`: one server can stand for any number of subscribers. */
  callback(name: string): string;
  verifications: { path: string; mode: string | null; topic: string | null }[];
  deliveries: ReceivedDelivery[];
  deliveriesTo(name: string): ReceivedDelivery[];
  /** Leaves delivery POSTs to `name` unanswered (in flight) until `release()`: a sender can die mid-request. */
  hold(name: string): void;
  release(): void;
  close(): Promise<void>;
}

/**
 * An HTTPS WebSub subscriber: answers verification GETs with the challenge (WebSub §5.3) and records
 * every content distribution POST (§7) with the headers the contract checks.
 */
export async function startSubscriber(pki: TestPki): Promise<TestSubscriber> {
  const verifications: TestSubscriber['verifications'] = [];
  const deliveries: ReceivedDelivery[] = [];
  const held = new Set<string>();
  const waiting: (() => void)[] = [];
  const server = https.createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    if (req.method === 'GET') {
      const challenge = url.searchParams.get('hub.challenge');
      verifications.push({ path: url.pathname, mode: url.searchParams.get('hub.mode'), topic: url.searchParams.get('hub.topic') });
      res.writeHead(challenge ? 200 : 204, { 'content-type': 'text/plain' }).end(challenge ?? '');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // Recorded on arrival: a delivery whose sender dies before the answer still counts as received.
      deliveries.push({
        path: url.pathname,
        at: Date.now(),
        contentType: req.headers['content-type'],
        link: req.headers.link as string | undefined,
        signature: req.headers['x-hub-signature'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (held.has(url.pathname)) waiting.push(() => res.writeHead(204).end());
      else res.writeHead(204).end();
    });
  });
  // Longer than the hub's own keep-alive (10 s), so the hub never writes to a connection this side just closed.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    callback: (name) => `https://127.0.0.1:${port}/${name}`,
    verifications,
    deliveries,
    deliveriesTo: (name) => deliveries.filter((d) => d.path === `/${name}`),
    hold(name) {
      held.add(`/${name}`);
    },
    release() {
      held.clear();
      for (const answer of waiting.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
