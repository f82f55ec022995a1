/**
 * Soak benchmark (issue 11): mixed load (REST, feeds, MCP, the WebSub hub) at 80% of the measured peak
 * for --minutes (default 10), with an import of a changed review every minute. Reports errors (anything
 * but the expected status, or a socket error), RSS at the start and end, and p99 latency while idle
 * against p99 in the 10 s after each import starts.
 *
 *   npm run build && npx tsx bench/soak.ts [--minutes 10] [--reviews 2000] [--connections 20]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request } from 'autocannon';
import { createTempDir, writeLargeDataset } from './lib/dataset.js';
import { stopAllChildren } from './lib/processes.js';
import { importDataset, rssMb, sqliteUrl, startService, waitForInsights } from './lib/service.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    reviews: { type: 'string', default: '2000' },
    connections: { type: 'string', default: '20' },
    'peak-seconds': { type: 'string', default: '10' },
  },
});
const minutes = Number(values.minutes);
const reviewCount = Number(values.reviews);
const connections = Number(values.connections);
const peakSeconds = Number(values['peak-seconds']);

// The server is a child process with the bench's environment: no connection cap from the one load
// address, no hub rate limit, callbacks on loopback allowed (verification fails fast on a closed port).
Object.assign(process.env, { MAX_CONNECTIONS_PER_ADDRESS: '0', WEBSUB_RATE_LIMIT: '0', WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true' });

function p99(latencies: number[]): number {
  if (latencies.length === 0) return Number.NaN;
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
}

async function mcpSession(base: string): Promise<string> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } },
    }),
  });
  await res.text();
  const sid = res.headers.get('mcp-session-id');
  if (!sid) throw new Error(`MCP initialize gave no session (HTTP ${res.status})`);
  return sid;
}

function requests(base: string, sid: string): Request[] {
  const mcpHeaders = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': sid,
    'mcp-protocol-version': '2025-11-25',
  };
  const hubBody = (i: number) =>
    new URLSearchParams({
      'hub.mode': 'subscribe',
      'hub.topic': `${base}/feed.xml`,
      'hub.callback': `https://127.0.0.1:9/cb/${i}`,
    }).toString();
  return [
    { method: 'GET', path: '/reviews.json' },
    { method: 'GET', path: '/api/reviews/search?rating=5&limit=10' },
    { method: 'GET', path: '/api/reviews/search?query=drain&sort=oldest' },
    { method: 'GET', path: '/api/reviews/since/2025-01-01' },
    { method: 'GET', path: '/api/feed.json' },
    { method: 'GET', path: '/feed.xml' },
    {
      method: 'POST',
      path: '/mcp',
      headers: mcpHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'search_reviews', arguments: { rating: 4, limit: 5 } },
      }),
    },
    { method: 'POST', path: '/api/websub/hub', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: hubBody(1) },
  ];
}

const EXPECTED = new Set([200, 202]);

async function main(): Promise<void> {
  const tmp = createTempDir('rds-soak-');
  try {
    const file = writeLargeDataset(tmp.path, reviewCount);
    const db = sqliteUrl(tmp.path);
    await importDataset(file, db);
    const service = await startService({ databaseUrl: db });
    await waitForInsights(service);
    const pid = service.child.process.pid!;
    const sid = await mcpSession(service.base);
    const reqs = requests(service.base, sid);

    // 1. Peak: as fast as the connections go, for a few seconds.
    const peak = await autocannon({ url: service.base, connections, duration: peakSeconds, requests: reqs });
    const peakRps = peak.requests.average;
    const rate = Math.max(1, Math.floor(peakRps * 0.8));

    // 2. Soak at 80% of it, an import every minute.
    const samples: { at: number; ms: number }[] = [];
    let errors = 0;
    const statuses = new Map<number, number>();
    const imports: { start: number; end: number }[] = [];
    const rss: { at: number; mb: number }[] = [{ at: Date.now(), mb: rssMb(pid) }];
    const dataset = JSON.parse(readFileSync(file, 'utf8')) as { reviews: { title: string | null; updated_at?: string }[] };
    const instance = autocannon({ url: service.base, connections, duration: minutes * 60, overallRate: rate, requests: reqs });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      samples.push({ at: Date.now(), ms });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (!EXPECTED.has(status)) errors++;
    });
    instance.on('reqError', () => errors++);
    const rssTimer = setInterval(() => rss.push({ at: Date.now(), mb: rssMb(pid) }), 5000);
    let minute = 0;
    const importTimer = setInterval(() => {
      minute++;
      const changed = path.join(tmp.path, `change-${minute}.json`);
      const first = dataset.reviews[0]!;
      first.title = `Soak change ${minute}`;
      first.updated_at = new Date().toISOString();
      writeFileSync(changed, JSON.stringify(dataset));
      const start = Date.now();
      importDataset(changed, db).then(
        () => imports.push({ start, end: Date.now() }),
        (e: unknown) => console.error(`import ${minute} failed: ${String(e)}`),
      );
    }, 60_000);
    const result = await instance;
    clearInterval(rssTimer);
    clearInterval(importTimer);
    rss.push({ at: Date.now(), mb: rssMb(pid) });

    // Within an import: from its start until 10 s after (the server notices within a poll, then rebuilds).
    const during = samples.filter((s) => imports.some((i) => s.at >= i.start && s.at <= i.end + 10_000));
    const idle = samples.filter((s) => !imports.some((i) => s.at >= i.start - 2000 && s.at <= i.end + 12_000));
    const afterWarmup = rss.filter((r) => r.at >= rss[0]!.at + 30_000);
    const rssStart = afterWarmup[0]?.mb ?? rss[0]!.mb;
    const rssEnd = rss.at(-1)!.mb;
    const report = {
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`,
      reviews: reviewCount,
      minutes,
      connections,
      peak_rps: Math.round(peakRps),
      target_rps: rate,
      achieved_rps: Math.round(result.requests.average),
      requests: samples.length,
      errors: errors + result.errors,
      statuses: Object.fromEntries(statuses),
      imports: imports.length,
      p99_idle_ms: p99(idle.map((s) => s.ms)),
      p99_during_imports_ms: p99(during.map((s) => s.ms)),
      max_during_imports_ms: Math.max(0, ...during.map((s) => s.ms)),
      rss_start_mb: Math.round(rssStart),
      rss_end_mb: Math.round(rssEnd),
      rss_growth_pct: Math.round(((rssEnd - rssStart) / rssStart) * 1000) / 10,
    };
    console.log(JSON.stringify(report, null, 2));
    await service.stop();
  } finally {
    await stopAllChildren();
    tmp.remove();
  }
}

await main();
