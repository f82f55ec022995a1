/**
 * MCP benchmark: `tools/call search_reviews` throughput against the REST search it wraps, measured in the
 * same run on the same server process, for both protocol eras (2025 session and 2026-07-28 stateless).
 * Target: MCP at least 0.3x REST. The `-sdk` cases send the same call with a `_meta` that differs on every
 * request (`bench/n`, a counter): the same answer, but never a kept reply (src/mcp/kept-replies.ts), so
 * every call is served by the SDK, which is what the kept replies are measured against.
 *
 *   npm run build && npx tsx bench/mcp-throughput.ts [--reviews 10000] [--duration 10] [--connections 10] [--rounds 3]
 *     [--search-cache-bytes N]   (the server's SEARCH_CACHE_BYTES; 0: neither REST nor MCP keeps search answers)
 *     [--builds DIR,DIR]         (package directories holding a dist/: a server each, on the same database,
 *                                 measured in interleaved rounds; ratios are within a build; default: this one)
 *     [--cases rest,legacy,modern,legacy-sdk,modern-sdk]  (which cases to run; the ratio needs rest;
                               default: rest,legacy,modern,modern-sdk)
 *     [--cpu-prof DIR]           (the servers run with node --cpu-prof, their profiles written to DIR at the end)
 *
 * Besides req/s, the server's CPU time per request (utime + stime from /proc): the load generator runs
 * on the same machine, and a fast case can be bound by it rather than by the server. The load average is
 * printed at the start and the end. The exit status judges the last build named: its stateless era.
 *
 * The server is a child process; autocannon runs here. Markdown goes to stdout, JSON to bench/results/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createTempDir, writeLargeDataset } from './lib/dataset.js';
import { stopAllChildren } from './lib/processes.js';
import { importDataset, processCpuMs, ROOT, sqliteUrl, startService, waitForInsights, type RunningService } from './lib/service.js';
import { lowerMedian } from './lib/median.js';

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    'search-cache-bytes': { type: 'string' },
    builds: { type: 'string', default: ROOT },
    cases: { type: 'string', default: 'rest,legacy,modern,modern-sdk' },
    'cpu-prof': { type: 'string' },
  },
});
const builds = values.builds.split(',').map((b) => path.resolve(b));
const chosen = new Set(values.cases.split(','));
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const [size, duration, warmup, connections, rounds] = [
  values.reviews,
  values.duration,
  values.warmup,
  values.connections,
  values.rounds,
].map(Number) as [number, number, number, number, number];
const log = (msg: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

// The same filters on both sides: what assistants send most (spec §4.7: rating and limit).
const FILTERS = { rating: 5, limit: 20 };
const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';

interface Case {
  /** rest, legacy or modern (--cases). */
  kind: string;
  name: string;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Each request's body differs (a counter in `_meta`): no reply is kept. */
  fresh?: boolean;
}

interface Measured {
  build: string;
  kind: string;
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU time per request, µs (NaN where /proc is not available). */
  cpuUs: number;
}

async function load(build: string, c: Case, pid: number | undefined): Promise<Measured> {
  let n = 0;
  // A `_meta` member of its own per request: `"_meta":{` opens it in both eras' bodies.
  const fresh =
    c.body && c.fresh
      ? [{ setupRequest: (req: object) => ({ ...req, body: c.body!.replace('"_meta":{', `"_meta":{"bench/n":${++n},`) }) }]
      : undefined;
  const base = {
    url: c.url,
    method: c.method,
    headers: c.headers,
    connections,
    timeout: 30,
    ...(c.body ? { body: c.body } : {}),
    ...(fresh ? { requests: fresh } : {}),
  };
  await autocannon({ ...base, duration: warmup });
  const cpuBefore = pid === undefined ? null : processCpuMs(pid);
  const r = await autocannon({ ...base, duration });
  const cpuAfter = pid === undefined ? null : processCpuMs(pid);
  const total = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  if (r.errors > 0 || r['2xx'] !== total || total === 0) throw new Error(`${c.name}: ${r['2xx']}/${total} 2xx, ${r.errors} errors`);
  const cpuUs = cpuBefore === null || cpuAfter === null ? Number.NaN : ((cpuAfter - cpuBefore) * 1000) / r.requests.total;
  return { build, kind: c.kind, name: c.name, rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, cpuUs };
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

/** The cases against one server, checked before any load. */
async function casesFor(service: RunningService): Promise<Case[]> {
  const mcp = `${service.base}/mcp`;
  const sessionId = await openSession(mcp);
  const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_reviews', arguments: FILTERS } };
  const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const cases: Case[] = [
    {
      kind: 'rest',
      name: 'REST GET /api/reviews/search',
      method: 'GET',
      url: `${service.base}/api/reviews/search?${new URLSearchParams(Object.entries(FILTERS).map(([k, v]): [string, string] => [k, String(v)]))}`,
      headers: {},
    },
    {
      kind: 'legacy',
      name: `MCP tools/call search_reviews (${LEGACY}, session)`,
      method: 'POST',
      url: mcp,
      headers: { ...mcpHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY },
      body: JSON.stringify(call),
    },
    {
      kind: 'modern',
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
  const legacy = cases[1]!;
  const modern = cases[2]!;
  cases.push(
    {
      ...legacy,
      kind: 'legacy-sdk',
      name: `MCP tools/call search_reviews (${LEGACY}, session), served by the SDK every time`,
      body: JSON.stringify({ ...call, params: { ...call.params, _meta: { 'bench/client': 'bench' } } }),
      fresh: true,
    },
    {
      ...modern,
      kind: 'modern-sdk',
      name: `MCP tools/call search_reviews (${MODERN}, stateless), served by the SDK every time`,
      fresh: true,
    },
  );
  await verify(cases);
  return cases.filter((c) => chosen.has(c.kind));
}

async function main(): Promise<void> {
  const dir = createTempDir('rds-bench-mcp-');
  const loadAtStart = loadAverage();
  try {
    log(`dataset of ${size} reviews`);
    const file = writeLargeDataset(dir.path, size);
    await importDataset(file, sqliteUrl(dir.path));
    const cacheBytes = values['search-cache-bytes'];
    const profileDir = values['cpu-prof'];
    const servers: { build: string; service: RunningService; cases: Case[] }[] = [];
    for (const build of builds) {
      const service = await startService({
        databaseUrl: sqliteUrl(dir.path),
        build,
        ...(cacheBytes === undefined ? {} : { env: { SEARCH_CACHE_BYTES: cacheBytes } }),
        ...(profileDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] } : {}),
      });
      // Measure steady state, not the first seconds in which the insights are still being computed.
      await waitForInsights(service);
      servers.push({ build: path.basename(build), service, cases: await casesFor(service) });
    }
    // Rounds interleave the builds and the cases, so a busy spell on the machine hits all of them alike; medians.
    const runs = new Map<string, Measured[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const { build, service, cases } of servers) {
        for (const c of cases) {
          log(`round ${round}/${rounds}: ${build}: ${c.name} (load ${loadAverage()})`);
          const key = `${build}\0${c.kind}`;
          runs.set(key, [...(runs.get(key) ?? []), await load(build, c, service.child.process.pid)]);
        }
      }
    }
    const loadAtEnd = loadAverage();
    for (const { service } of servers) await service.stop();
    const results: Measured[] = [...runs.values()].map((all) => ({
      build: all[0]!.build,
      kind: all[0]!.kind,
      name: all[0]!.name,
      rps: lowerMedian(all.map((r) => r.rps)),
      p50: lowerMedian(all.map((r) => r.p50)),
      p99: lowerMedian(all.map((r) => r.p99)),
      cpuUs: lowerMedian(all.map((r) => r.cpuUs)),
    }));
    const restOf = (build: string) => results.find((r) => r.build === build && r.kind === 'rest');
    const ratio = (r: Measured, value: (m: Measured) => number, inverse = false) => {
      const rest = restOf(r.build);
      if (!rest || r.kind === 'rest') return r.kind === 'rest' ? '1.00x' : '';
      return `${(inverse ? value(rest) / value(r) : value(r) / value(rest)).toFixed(2)}x`;
    };

    const lines = [
      `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} x${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}; load average ${loadAtStart} at the start, ${loadAtEnd} at the end.`,
      `Command: \`npx tsx bench/mcp-throughput.ts --reviews ${size} --duration ${duration} --warmup ${warmup} --connections ${connections} --rounds ${rounds}${cacheBytes === undefined ? '' : ` --search-cache-bytes ${cacheBytes}`}${builds.length > 1 ? ` --builds ${builds.map((b) => path.basename(b)).join(',')}` : ''}${values.cases === 'rest,legacy,modern,modern-sdk' ? '' : ` --cases ${values.cases}`}\` (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC).`,
      `Filters: \`${JSON.stringify(FILTERS)}\`; ${size} reviews; one server process per build; autocannon, ${connections} connections, ${duration} s after ${warmup} s warm-up, median of ${rounds} interleaved rounds.`,
      '',
      '| build | case | req/s | p50 ms | p99 ms | vs REST | target | server CPU µs/req | REST CPU / this CPU |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|',
      ...results.map(
        (r) =>
          `| ${r.build} | ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${ratio(r, (m) => m.rps)} | ${r.kind === 'rest' ? '' : '≥ 0.30x'} | ${Math.round(r.cpuUs)} | ${ratio(r, (m) => m.cpuUs, true)} |`,
      ),
    ];
    console.log(lines.join('\n'));
    const out = path.join(ROOT, 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(
      path.join(out, `mcp-throughput-${Date.now()}.json`),
      JSON.stringify({ size, duration, connections, load: [loadAtStart, loadAtEnd], results }, null, 2),
    );
    const last = path.basename(builds.at(-1)!);
    const rest = restOf(last);
    // The bar is the stateless era's (2026-07-28, as served: kept replies included); the others are reported.
    const stateless = results.find((r) => r.build === last && r.kind === 'modern');
    const worst = rest && stateless ? stateless.rps / rest.rps : Number.NaN;
    if (!(worst >= 0.3)) {
      log(`FAIL: MCP stateless reached ${worst.toFixed(2)}x of REST (target 0.30x)`);
      process.exitCode = 1;
    }
  } finally {
    await stopAllChildren();
    dir.remove();
  }
}

await main();
