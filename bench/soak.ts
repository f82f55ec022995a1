/**
 * Soak benchmark: mixed load (REST, feeds, MCP, the WebSub hub) at 80% of the measured peak for
 * --minutes (default 10), with an import of the whole dataset, one review changed, every
 * --import-seconds (default 10) from another process. Reports errors (anything but the expected
 * status, a socket error, or a failed import), RSS after the warm-up and at the end (the server alone,
 * and with its insights worker process), its samples, p99 latency while idle against p99 in the 10 s
 * after each import starts, and RSS again after --settle-seconds without load or imports.
 *
 *   npm run build && npx tsx bench/soak.ts [--minutes 10] [--reviews 5000] [--connections 20] [--import-seconds 10]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request } from 'autocannon';
import { createTempDir, writeLargeDataset } from './lib/dataset.js';
import { stopAllChildren } from './lib/processes.js';
import { importDataset, rssMb, sqliteUrl, startService, waitForInsights } from './lib/service.js';

/** VmRSS of one process in MB, without its children (Linux). */
function ownRssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    reviews: { type: 'string', default: '5000' },
    connections: { type: 'string', default: '20' },
    'peak-seconds': { type: 'string', default: '10' },
    'import-seconds': { type: 'string', default: '10' },
    'settle-seconds': { type: 'string', default: '30' },
  },
});
const minutes = Number(values.minutes);
const reviewCount = Number(values.reviews);
const connections = Number(values.connections);
const peakSeconds = Number(values['peak-seconds']);
const importSeconds = Number(values['import-seconds']);
const settleSeconds = Number(values['settle-seconds']);

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

    // 2. Soak at 80% of it, an import every --import-seconds.
    const samples: { at: number; ms: number }[] = [];
    let errors = 0;
    let failedImports = 0;
    const statuses = new Map<number, number>();
    const imports: { start: number; end: number }[] = [];
    const sample = () => ({ at: Date.now(), mb: rssMb(pid), own: ownRssMb(pid) });
    const rss: { at: number; mb: number; own: number }[] = [sample()];
    const dataset = JSON.parse(readFileSync(file, 'utf8')) as { reviews: { title: string | null; updated_at?: string }[] };
    const instance = autocannon({ url: service.base, connections, duration: minutes * 60, overallRate: rate, requests: reqs });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      samples.push({ at: Date.now(), ms });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (!EXPECTED.has(status)) errors++;
    });
    instance.on('reqError', () => errors++);
    const rssTimer = setInterval(() => rss.push(sample()), 5000);
    let round = 0;
    const changed = path.join(tmp.path, 'change.json');
    const importTimer = setInterval(() => {
      round++;
      const first = dataset.reviews[0]!;
      first.title = `Soak change ${round}`;
      first.updated_at = new Date().toISOString();
      writeFileSync(changed, JSON.stringify(dataset));
      const start = Date.now();
      const n = round;
      importDataset(changed, db).then(
        () => imports.push({ start, end: Date.now() }),
        (e: unknown) => {
          failedImports++;
          console.error(`import ${n} failed: ${String(e)}`);
        },
      );
    }, importSeconds * 1000);
    const result = await instance;
    clearInterval(rssTimer);
    clearInterval(importTimer);
    rss.push(sample());
    // 3. Without load or imports: what the process gives back.
    await new Promise((r) => setTimeout(r, settleSeconds * 1000));
    const settled = sample();

    // Within an import: from its start until 10 s after (the server notices within a poll, then rebuilds).
    const during = samples.filter((s) => imports.some((i) => s.at >= i.start && s.at <= i.end + 10_000));
    const idle = samples.filter((s) => !imports.some((i) => s.at >= i.start - 2000 && s.at <= i.end + 12_000));
    const afterWarmup = rss.filter((r) => r.at >= rss[0]!.at + 30_000);
    // A leak is a trend: the median of the second half of the run against the first half's (after the
    // warm-up). One sample against another mostly measures where the insights worker's heap stood.
    const half = Math.floor(afterWarmup.length / 2);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
    const trend = (pick: (r: (typeof rss)[number]) => number) => {
      const a = median(afterWarmup.slice(0, half).map(pick));
      const b = median(afterWarmup.slice(half).map(pick));
      return {
        first_half_median_mb: Math.round(a),
        second_half_median_mb: Math.round(b),
        growth_pct: Math.round(((b - a) / a) * 1000) / 10,
      };
    };
    const first = afterWarmup[0] ?? rss[0]!;
    const last = rss.at(-1)!;
    const rssStart = first.mb;
    const rssEnd = last.mb;
    const report = {
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`,
      reviews: reviewCount,
      minutes,
      connections,
      peak_rps: Math.round(peakRps),
      target_rps: rate,
      achieved_rps: Math.round(result.requests.average),
      requests: samples.length,
      load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
      errors: errors + result.errors + failedImports,
      statuses: Object.fromEntries(statuses),
      import_seconds: importSeconds,
      imports: imports.length,
      failed_imports: failedImports,
      p99_ms: p99(samples.map((s) => s.ms)),
      // With an import every 10 s nearly every request is "during" one; "idle" is then a few seconds' worth.
      p99_idle_ms: p99(idle.map((s) => s.ms)),
      p99_during_imports_ms: p99(during.map((s) => s.ms)),
      max_during_imports_ms: Math.max(0, ...during.map((s) => s.ms)),
      rss_start_mb: Math.round(rssStart),
      rss_end_mb: Math.round(rssEnd),
      rss_growth_pct: Math.round(((rssEnd - rssStart) / rssStart) * 1000) / 10,
      rss_trend: trend((r) => r.mb),
      rss_trend_server_alone: trend((r) => r.own),
      rss_server_alone_start_mb: Math.round(first.own),
      rss_server_alone_end_mb: Math.round(last.own),
      rss_after_settle_mb: Math.round(settled.mb),
      rss_server_alone_after_settle_mb: Math.round(settled.own),
      // Every 30 s: minutes, with worker, server alone.
      rss_series: rss
        .filter((_, i) => i % 6 === 0)
        .map((r) => [Math.round((r.at - rss[0]!.at) / 6000) / 10, Math.round(r.mb), Math.round(r.own)]),
    };
    console.log(JSON.stringify(report, null, 2));
    await service.stop();
  } finally {
    await stopAllChildren();
    tmp.remove();
  }
}

await main();
