/**
 * MCP benchmark (issue 4): `tools/call search_reviews` throughput against the REST search it wraps,
 * measured in the same run on the same server process, for both protocol eras (2025 session and
 * 2026-07-28 stateless). Target: MCP at least 0.3x REST.
 *
 *   npm run build && npx tsx bench/mcp-throughput.ts [--reviews 10000] [--duration 10] [--connections 10] [--rounds 3]
 *     [--search-cache-bytes N]   (the server's SEARCH_CACHE_BYTES; 0: neither REST nor MCP keeps search answers)
 *
 * Besides req/s, the server's CPU time per request (utime + stime from /proc): the load generator runs
 * on the same machine, and a fast case can be bound by it rather than by the server.
 *
 * The server is a child process; autocannon runs here. Markdown goes to stdout, JSON to bench/results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createTempDir, writeLargeDataset } from './lib/dataset.js';
import { stopAllChildren } from './lib/processes.js';
import { importDataset, processCpuMs, ROOT, sqliteUrl, startService, waitForInsights } from './lib/service.js';

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    'search-cache-bytes': { type: 'string' },
  },
});
const [size, duration, warmup, connections, rounds] = [
  values.reviews,
  values.duration,
  values.warmup,
  values.connections,
  values.rounds,
].map(Number) as [number, number, number, number, number];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
const log = (msg: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

// The same filters on both sides: what assistants send most (spec §4.7: rating and limit).
const FILTERS = { rating: 5, limit: 20 };
const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';

interface Case {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU time per request, µs (NaN where /proc is not available). */
  cpuUs: number;
}

async function load(c: Case, pid: number | undefined): Promise<Measured> {
  const base = { url: c.url, method: c.method, headers: c.headers, connections, timeout: 30, ...(c.body ? { body: c.body } : {}) };
  await autocannon({ ...base, duration: warmup });
  const cpuBefore = pid === undefined ? null : processCpuMs(pid);
  const r = await autocannon({ ...base, duration });
  const cpuAfter = pid === undefined ? null : processCpuMs(pid);
  const total = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  if (r.errors > 0 || r['2xx'] !== total || total === 0) throw new Error(`${c.name}: ${r['2xx']}/${total} 2xx, ${r.errors} errors`);
  const cpuUs = cpuBefore === null || cpuAfter === null ? Number.NaN : ((cpuAfter - cpuBefore) * 1000) / r.requests.total;
  return { name: c.name, rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, cpuUs };
}

async function openSession(mcp: string): Promise<string> {
  const r = await fetch(mcp, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  const id = r.headers.get('mcp-session-id');
  if (r.status !== 200 || !id) throw new Error(`initialize: HTTP ${r.status}`);
  return id;
}

/** One request of each case, checked to give the same reviews, before any load. */
async function verify(cases: Case[]): Promise<void> {
  const ids: string[] = [];
  for (const c of cases) {
    const r = await fetch(c.url, { method: c.method, headers: c.headers, ...(c.body ? { body: c.body } : {}) });
    const body = (await r.json()) as {
      reviews?: { id: string }[];
      result?: { structuredContent?: { reviews: { id: string }[] } };
      error?: unknown;
    };
    const reviews = body.reviews ?? body.result?.structuredContent?.reviews;
    if (r.status !== 200 || !reviews) throw new Error(`${c.name}: HTTP ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
    ids.push(reviews.map((x) => x.id).join());
  }
  if (new Set(ids).size !== 1) throw new Error('REST and MCP answers differ');
}

async function main(): Promise<void> {
  const dir = createTempDir('rds-bench-mcp-');
  try {
    log(`dataset of ${size} reviews`);
    const file = writeLargeDataset(dir.path, size);
    await importDataset(file, sqliteUrl(dir.path));
    const cacheBytes = values['search-cache-bytes'];
    const service = await startService({
      databaseUrl: sqliteUrl(dir.path),
      ...(cacheBytes === undefined ? {} : { env: { SEARCH_CACHE_BYTES: cacheBytes } }),
    });
    // Measure steady state, not the first seconds in which the insights are still being computed.
    await waitForInsights(service);
    const mcp = `${service.base}/mcp`;
    const sessionId = await openSession(mcp);
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_reviews', arguments: FILTERS } };
    const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const cases: Case[] = [
      {
        name: 'REST GET /api/reviews/search',
        method: 'GET',
        url: `${service.base}/api/reviews/search?${new URLSearchParams(Object.entries(FILTERS).map(([k, v]): [string, string] => [k, String(v)]))}`,
        headers: {},
      },
      {
        name: `MCP tools/call search_reviews (${LEGACY}, session)`,
        method: 'POST',
        url: mcp,
        headers: { ...mcpHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY },
        body: JSON.stringify(call),
      },
      {
        name: `MCP tools/call search_reviews (${MODERN}, stateless)`,
        method: 'POST',
        url: mcp,
        headers: { ...mcpHeaders, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' },
        body: JSON.stringify({
          ...call,
          params: {
            ...call.params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
            },
          },
        }),
      },
    ];
    await verify(cases);
    // Rounds interleave the cases, so a busy spell on the machine hits all of them alike; medians.
    const runs = new Map<string, Measured[]>(cases.map((c) => [c.name, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const c of cases) {
        log(`round ${round}/${rounds}: ${c.name}`);
        runs.get(c.name)!.push(await load(c, service.child.process.pid));
      }
    }
    await service.stop();
    const results: Measured[] = cases.map((c) => {
      const all = runs.get(c.name)!;
      return {
        name: c.name,
        rps: median(all.map((r) => r.rps)),
        p50: median(all.map((r) => r.p50)),
        p99: median(all.map((r) => r.p99)),
        cpuUs: median(all.map((r) => r.cpuUs)),
      };
    });

    const rest = results[0]!.rps;
    const restCpu = results[0]!.cpuUs;
    const lines = [
      `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} x${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}.`,
      `Command: \`npx tsx bench/mcp-throughput.ts --reviews ${size} --duration ${duration} --warmup ${warmup} --connections ${connections} --rounds ${rounds}${cacheBytes === undefined ? '' : ` --search-cache-bytes ${cacheBytes}`}\` (${new Date().toISOString().slice(0, 10)}).`,
      `Filters: \`${JSON.stringify(FILTERS)}\`; ${size} reviews; one server process; autocannon, ${connections} connections, ${duration} s after ${warmup} s warm-up, median of ${rounds} interleaved rounds.`,
      '',
      '| case | req/s | p50 ms | p99 ms | vs REST | target | server CPU µs/req | REST CPU / this CPU |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...results.map(
        (r, i) =>
          `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${i === 0 ? '1.00x' : `${(r.rps / rest).toFixed(2)}x`} | ${i === 0 ? '' : '≥ 0.30x'} | ${Math.round(r.cpuUs)} | ${(restCpu / r.cpuUs).toFixed(2)}x |`,
      ),
    ];
    console.log(lines.join('\n'));
    const out = path.join(ROOT, 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, `mcp-throughput-${Date.now()}.json`), JSON.stringify({ size, duration, connections, results }, null, 2));
    const worst = Math.min(...results.slice(1).map((r) => r.rps / rest));
    if (worst < 0.3) {
      log(`FAIL: MCP reached ${worst.toFixed(2)}x of REST (target 0.30x)`);
      process.exitCode = 1;
    }
  } finally {
    await stopAllChildren();
    dir.remove();
  }
}

await main();
