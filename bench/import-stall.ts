/**
 * Requests during an import: p99 latency of small requests while another process imports
 * into the server's database and the server rebuilds its snapshot, against p99 with no import, in the
 * same run. Target: within 5x of idle.
 *
 *   npm run build && npx tsx bench/import-stall.ts [--reviews 50000] [--rate 200] [--idle-seconds 15]
 *
 * The load is open-loop (autocannon's overallRate spread over the connections), so a stalled server
 * shows as latency, not as fewer requests. Imports: one changed review ("one"), then the whole dataset
 * with every review changed ("all", a full rebuild and a full insights recompute). An import's window
 * runs from its start until the server serves the new data (HEAD /reviews.json shows a new ETag) plus
 * --tail-seconds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request } from 'autocannon';
import { createTempDir, writeLargeDataset } from './lib/dataset.js';
import { stopAllChildren } from './lib/processes.js';
import { importDataset, sqliteUrl, startService, waitForInsights } from './lib/service.js';

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '50000' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '10' },
    'idle-seconds': { type: 'string', default: '15' },
    'tail-seconds': { type: 'string', default: '3' },
    imports: { type: 'string', default: 'one,all' },
  },
});
const reviewCount = Number(values.reviews);
const rate = Number(values.rate);
const connections = Number(values.connections);
const idleSeconds = Number(values['idle-seconds']);
const tailMs = Number(values['tail-seconds']) * 1000;

Object.assign(process.env, { MAX_CONNECTIONS_PER_ADDRESS: '0' });

const REQUESTS: Request[] = [
  { method: 'GET', path: '/api/reviews/search?rating=5&limit=10' },
  { method: 'GET', path: '/api/reviews/search?query=drain&sort=oldest' },
  { method: 'GET', path: '/api/reviews/search?min_rating=4&since=2024-01-01&limit=20' },
  { method: 'GET', path: '/feed.xml' },
  { method: 'GET', path: '/api/feed.json' },
  { method: 'GET', path: '/healthz' },
];

function percentile(ms: number[], p: number): number {
  if (ms.length === 0) return Number.NaN;
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function summary(ms: number[]) {
  return { requests: ms.length, p50_ms: percentile(ms, 0.5), p99_ms: percentile(ms, 0.99), max_ms: Math.max(0, ...ms) };
}

async function etag(base: string): Promise<string | null> {
  // identity: a client that accepts br would have the server compress tens of megabytes first.
  const r = await fetch(`${base}/reviews.json`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
  return r.headers.get('etag');
}

async function main(): Promise<void> {
  const tmp = createTempDir('rds-stall-');
  try {
    const file = writeLargeDataset(tmp.path, reviewCount);
    const db = sqliteUrl(tmp.path);
    const importMs = await importDataset(file, db);
    const service = await startService({ databaseUrl: db, timeoutMs: 600_000 });
    await waitForInsights(service);
    const dataset = JSON.parse(readFileSync(file, 'utf8')) as { business: unknown; reviews: { title: string | null }[] };

    const samples: { at: number; ms: number }[] = [];
    let errors = 0;
    const plan = values.imports.split(',').filter(Boolean);
    const totalSeconds = idleSeconds + plan.length * 120;
    const instance = autocannon({ url: service.base, connections, duration: totalSeconds, overallRate: rate, requests: REQUESTS });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      samples.push({ at: Date.now(), ms });
      if (status !== 200) errors++;
    });
    instance.on('reqError', () => errors++);

    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idleEnd = Date.now();
    const windows: { name: string; start: number; end: number; importMs: number; visibleMs: number }[] = [];
    for (const [n, kind] of plan.entries()) {
      const before = await etag(service.base);
      const changed = path.join(tmp.path, `change-${n}.json`);
      const reviews = kind === 'one' ? dataset.reviews.slice(0, 1) : dataset.reviews;
      for (const r of reviews) r.title = `Changed ${n} ${r.title ?? ''}`.trim();
      writeFileSync(changed, JSON.stringify({ business: dataset.business, reviews }));
      const start = Date.now();
      const took = await importDataset(changed, db);
      while ((await etag(service.base)) === before) await new Promise((r) => setTimeout(r, 50));
      const visible = Date.now();
      await new Promise((r) => setTimeout(r, tailMs));
      windows.push({ name: kind, start, end: visible + tailMs, importMs: took, visibleMs: visible - start });
      // Let the insights worker finish before the next import, as between two real imports.
      await waitForInsights(service);
      await new Promise((r) => setTimeout(r, 2000));
    }
    instance.stop();
    await instance;

    const idle = summary(samples.filter((s) => s.at < idleEnd).map((s) => s.ms));
    const report = {
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
      reviews: reviewCount,
      initial_import_ms: importMs,
      rate,
      errors,
      idle,
      imports: windows.map((w) => {
        const during = summary(samples.filter((s) => s.at >= w.start && s.at <= w.end).map((s) => s.ms));
        return {
          import: w.name,
          import_ms: w.importMs,
          served_after_ms: w.visibleMs,
          ...during,
          p99_vs_idle: Math.round((during.p99_ms / idle.p99_ms) * 10) / 10,
        };
      }),
    };
    console.log(JSON.stringify(report, null, 2));
    await service.stop();
  } finally {
    await stopAllChildren();
    tmp.remove();
  }
}

await main();
