/**
 * The baseline: a raw node:http server that answers from a table of precomputed responses, doing the
 * least work any server could: one Map lookup, one header comparison for If-None-Match, one write.
 * Run as a child process: `node --import tsx bench/lib/baseline-server.ts ROUTES.json PORT [SPIN_US]`.
 * Prints "listening" once ready. SPIN_US > 0: a control, the same server made dearer on purpose by
 * busy-waiting that many microseconds before each answer (bench/method-check.ts).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

export interface BaselineRoute {
  /** The request target, path and query, exactly as the bench requests it. */
  url: string;
  /** The real server's 200 headers, minus the ones node:http writes itself. */
  headers: Record<string, string>;
  /** A file holding the exact body bytes the real server sent. */
  bodyFile: string;
  /** When set, a request whose If-None-Match equals `etag` gets 304 with these headers. */
  notModified?: { etag: string; headers: Record<string, string> };
}

interface Loaded {
  headers: Record<string, string>;
  body: Buffer;
  notModified?: BaselineRoute['notModified'];
}

/** Holds the CPU for `us` microseconds: a known cost per answer. */
function spin(us: number): void {
  const until = process.hrtime.bigint() + BigInt(Math.round(us * 1000));
  while (process.hrtime.bigint() < until);
}

function main(routesFile: string, port: number, spinUs: number): void {
  const routes = JSON.parse(readFileSync(routesFile, 'utf8')) as BaselineRoute[];
  const table = new Map<string, Loaded>();
  for (const r of routes) {
    const body = readFileSync(r.bodyFile);
    table.set(r.url, { headers: { ...r.headers, 'content-length': String(body.length) }, body, notModified: r.notModified });
  }
  const server = createServer((req, res) => {
    if (spinUs > 0) spin(spinUs);
    const hit = table.get(req.url ?? '');
    if (!hit) {
      res.writeHead(404, { 'content-length': '0' }).end();
      return;
    }
    if (hit.notModified && req.headers['if-none-match'] === hit.notModified.etag) {
      res.writeHead(304, hit.notModified.headers).end();
      return;
    }
    res.writeHead(200, hit.headers).end(hit.body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => console.log('listening'));
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
  server.on('close', () => undefined);
}

const [routesFile, port, spinUs] = process.argv.slice(2);
if (routesFile && port) main(routesFile, Number(port), Number(spinUs ?? 0));
