/**
 * Shared parts of the WebSub benchmarks: a farm of HTTPS subscribers on 127.0.0.1 (certificates from a
 * throw-away CA) and the real server as a child process with the hub configured for loopback callbacks.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { makeTestPki, type TestPki } from '../test/websub/support/test-pki.js';
import { freePort, HOST, startChild, waitForOk, type Child } from './lib/processes.js';
import { ROOT } from './lib/service.js';

export interface Arrival {
  at: number;
  hash: string;
}

/** `origins` HTTPS servers; a callback path per subscriber. Keeps only the last POST's hash and time. */
export class SubscriberFarm {
  readonly last = new Map<string, Arrival>();
  verifications = 0;
  /** TLS connections accepted: shows whether the hub reuses its connections. */
  connections = 0;
  private servers: https.Server[] = [];
  ports: number[] = [];

  constructor(private readonly pki: TestPki) {}

  async start(origins: number): Promise<this> {
    for (let i = 0; i < origins; i++) {
      const server = https.createServer(
        { key: this.pki.keyPem, cert: this.pki.certPem + this.pki.caPem, keepAliveTimeout: 30_000 },
        (req, res) => {
          const u = new URL(req.url ?? '/', 'https://127.0.0.1');
          if (req.method === 'GET') {
            req.resume();
            const challenge = u.searchParams.get('hub.challenge');
            if (u.searchParams.get('hub.mode') === 'subscribe') this.verifications++;
            res.writeHead(challenge ? 200 : 404, { 'content-type': 'text/plain' }).end(challenge ?? '');
            return;
          }
          const hash = createHash('sha256');
          req.on('data', (c: Buffer) => hash.update(c));
          req.on('end', () => {
            this.last.set(u.pathname, { at: Date.now(), hash: hash.digest('hex') });
            res.writeHead(204).end();
          });
        },
      );
      server.on('secureConnection', () => this.connections++);
      await new Promise<void>((r) => server.listen(0, HOST, r));
      this.servers.push(server);
      this.ports.push((server.address() as AddressInfo).port);
    }
    return this;
  }

  callback(i: number): string {
    return `https://${HOST}:${this.ports[i % this.ports.length]}/cb/${i}`;
  }

  async stop(): Promise<void> {
    for (const s of this.servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  }
}

export function makePki(dir: string): TestPki {
  return makeTestPki(path.join(dir, 'pki'));
}

/** Resident set of a process, now and at its peak (VmHWM), in MiB, from /proc (Linux). */
export function rssMiB(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

export interface HubService {
  child: Child;
  base: string;
  stop(): Promise<void>;
}

export async function startHubService(databaseUrl: string, pki: TestPki, extraEnv: Record<string, string> = {}): Promise<HubService> {
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  // WEBSUB_BENCH_PROFILE=<dir>: a CPU profile of the server, written when it stops.
  const profile = process.env.WEBSUB_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.WEBSUB_BENCH_PROFILE}`] : [];
  const child = startChild(process.execPath, [...profile, path.join(ROOT, 'dist', 'cli', 'index.js'), 'serve'], {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST,
    BASE_URL: base,
    LOG_LEVEL: 'warn',
    DEMO_ON_EMPTY: 'false',
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    WEBSUB_CA_FILE: pki.caFile,
    // Every request of a benchmark comes from 127.0.0.1: the per-address limit would be the bottleneck.
    WEBSUB_RATE_LIMIT: '0',
    ...extraEnv,
  });
  await waitForOk(`${base}/reviews.json`, child, 120_000, 100);
  return { child, base, stop: () => child.stop() };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
