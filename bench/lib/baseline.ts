/**
 * Builds the baseline's response table from the real server, so both send the same bytes with headers
 * of the same size, and starts it as a child process.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BaselineRoute } from './baseline-server.js';
import { freePort, HOST, nodeCommand, startChild, waitForOk, type Child, type Runtime } from './processes.js';
import { ROOT } from './service.js';

// node:http writes these itself on every response; replaying them would send them twice.
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

function replayable(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!WRITTEN_BY_NODE.has(name)) out[name] = value;
  });
  return out;
}

export interface CapturedResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Fetches `url` from the real server once (identity coding, like the load generator). */
export async function capture(base: string, url: string, headers: Record<string, string> = {}): Promise<CapturedResponse> {
  const res = await fetch(base + url, { headers: { 'accept-encoding': 'identity', ...headers } });
  const body = Buffer.from(await res.arrayBuffer());
  return { url, status: res.status, headers: replayable(res.headers), body };
}

/** A route replaying the real server's 200, and its 304 for the real ETag when asked for. */
export async function captureRoute(base: string, url: string, dir: string, withNotModified: boolean): Promise<BaselineRoute> {
  const ok = await capture(base, url);
  if (ok.status !== 200) throw new Error(`${url} answered ${ok.status}: ${ok.body.toString('utf8').slice(0, 500)}`);
  const bodyFile = path.join(dir, `baseline-${encodeURIComponent(url).slice(0, 80)}-${ok.body.length}.bin`);
  writeFileSync(bodyFile, ok.body);
  const route: BaselineRoute = { url, headers: ok.headers, bodyFile };
  if (withNotModified) {
    const etag = ok.headers.etag;
    if (!etag) throw new Error(`${url} sent no ETag`);
    const nm = await capture(base, url, { 'if-none-match': etag });
    if (nm.status !== 304) throw new Error(`${url} with If-None-Match answered ${nm.status}`);
    route.notModified = { etag, headers: nm.headers };
  }
  return route;
}

export interface Baseline {
  child: Child;
  base: string;
  stop(): Promise<void>;
}

/** `spinUs`: a control made dearer by that many microseconds of CPU per answer (baseline-server.ts). */
export async function startBaseline(routes: BaselineRoute[], dir: string, runtime: Runtime = {}, spinUs = 0): Promise<Baseline> {
  const routesFile = path.join(dir, 'baseline-routes.json');
  writeFileSync(routesFile, JSON.stringify(routes));
  const port = await freePort();
  const script = path.join(ROOT, 'bench', 'lib', 'baseline-server.ts');
  const { command, args } = nodeCommand(['--import', 'tsx', script, routesFile, String(port), String(spinUs)], runtime);
  const child = startChild(command, args, process.env);
  const base = `http://${HOST}:${port}`;
  const first = routes[0];
  try {
    if (first) await waitForOk(base + first.url, child, 30_000);
    return { child, base, stop: () => child.stop() };
  } catch (error) {
    await child.stop(1000);
    throw error;
  }
}
