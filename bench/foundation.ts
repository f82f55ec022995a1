/**
 * Foundation benchmarks: start-up, /reviews.json (200 and 304) and mixed-filter search, each
 * beside a raw node:http baseline serving the same precomputed bytes, measured in the same run; search
 * also beside json-server 0.17 over the same reviews.
 *
 *   npm run build && npx tsx bench/foundation.ts [--reviews 10000,100000] [--duration 10] [--rounds 1]
 *     [--startups 3] [--cases dataset200,dataset304,search,search-uncached,json-server | none] [--cpu-prof DIR]
 *     [--build DIR] [--log-level warn] [--trust-proxy true] [--node-args '--use-largepages=on'] [--pin]
 *     [--side-by-side]
 *
 * `--build DIR`: the server of another package directory holding a `dist/` (a before and an after
 * measured in turn in one session). `--log-level info --trust-proxy true`: the documented production
 * setup (behind a load balancer, one log line per request), where the fast paths must work too.
 * `--node-args`: Node flags for every server of the run, the service and its references alike (each
 * comparison is of one runtime). `--pin`: the load generator on the first CPU this process may use,
 * the servers on the others. `--side-by-side`: the comparisons by CPU (the 304s, the searches) load
 * both servers at once, each with its own connections, and read each one's CPU over the same seconds,
 * instead of one after the other: a server's CPU per request on loopback depends on how often its
 * answers find the load generator asleep, which varies from round to round, and two servers measured
 * at once share the same client and host (docs/benchmarks.md, "Side by side, and the load generator's
 * sleeps"; bench/method-check.ts checks the method).
 *
 * The servers are child processes; the load generator (autocannon) runs here. Results go to stdout as
 * markdown and to bench/results/ as JSON.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { captureRoute, startBaseline } from './lib/baseline.js';
import { createTempDir, writeLargeDataset, type TempDir } from './lib/dataset.js';
import { startJsonServer } from './lib/json-server.js';
import { runLoad, type LoadOptions, type LoadResult } from './lib/load.js';
import { lowerMedian } from './lib/median.js';
import { pinLoadGenerator, stopAllChildren } from './lib/processes.js';
import {
  importDataset,
  processCpuMs,
  ROOT,
  sqliteUrl,
  startService,
  waitForIdle,
  waitForInsights,
  type RunningService,
} from './lib/service.js';

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '10000,100000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '1' },
    startups: { type: 'string', default: '3' },
    cases: { type: 'string', default: 'dataset200,dataset304,search,search-uncached,json-server' },
    // A 66 MB /reviews.json (100k reviews) takes seconds per response: fewer connections give more,
    // shorter-waiting samples in the same time.
    'dataset-connections': { type: 'string', default: '10' },
    // A directory for the measured service's CPU profile (node --cpu-prof), written when it stops:
    // where the time of a case goes ("measure, don't guess").
    'cpu-prof': { type: 'string' },
    build: { type: 'string' },
    'log-level': { type: 'string', default: 'warn' },
    'trust-proxy': { type: 'string' },
    'node-args': { type: 'string', default: '' },
    pin: { type: 'boolean', default: false },
    'side-by-side': { type: 'boolean', default: false },
  },
});
// The runtime every server of the run shares (processes.ts Runtime).
const nodeArgs = values['node-args'].split(' ').filter(Boolean);
const cpus = values.pin ? pinLoadGenerator() : null;
if (values.pin && cpus === null) throw new Error('--pin: this machine has one CPU, or no taskset');
const runtime = { nodeArgs, ...(cpus ? { cpus } : {}) };
const sideBySide = values['side-by-side'];
if (sideBySide && processCpuMs(process.pid) === null) throw new Error('--side-by-side judges by CPU time, read from /proc: not here');
// How the measured servers run: which build, and with which logging and proxy settings.
const serverOptions = {
  ...runtime,
  ...(values.build ? { build: path.resolve(values.build) } : {}),
  logLevel: values['log-level'],
  env: (values['trust-proxy'] ? { TRUST_PROXY: values['trust-proxy'] } : {}) as Record<string, string>,
};
const sizes = values.reviews.split(',').map((s) => Number(s.trim()));
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const startups = Number(values.startups);
const cases = new Set(values.cases.split(','));
const LOAD_CASES = ['dataset200', 'dataset304', 'search', 'search-uncached', 'json-server'];
const datasetConnections = Number(values['dataset-connections']);
if (
  sizes.some((n) => !Number.isInteger(n) || n < 1) ||
  ![duration, warmup, connections, rounds, datasetConnections].every((n) => n > 0) ||
  !(startups >= 0)
)
  throw new Error('usage: foundation.ts [--reviews 10000,100000] [--duration 10] [--warmup 2] [--connections 10] [--rounds 1]');

interface Comparison {
  size: number;
  case: string;
  service: LoadResult;
  reference: LoadResult;
  referenceName: string;
  /** Service ÷ reference by rate, or, for servers loaded side by side, reference ÷ service by CPU per request. */
  ratio: number;
  target: number;
}

interface Startup {
  size: number;
  importMs: number;
  firstOkMs: number[];
  listeningMs: (number | null)[];
  cpuMs: (number | null)[];
  target: number;
}

const log = (msg: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

/**
 * Runs service and reference back to back, `rounds` times, alternating which goes first (or, with
 * --side-by-side and both CPUs read, at the same time); keeps every round.
 */
async function compare(
  size: number,
  name: string,
  target: number,
  service: LoadOptions,
  reference: LoadOptions,
  referenceName: string,
): Promise<Comparison[]> {
  const results: Comparison[] = [];
  for (let round = 0; round < rounds; round++) {
    const opts = { duration, warmup, connections };
    let s: LoadResult;
    let r: LoadResult;
    // Two servers loaded at once share the CPUs as the scheduler decides: their rates say nothing of
    // their costs, so such a round is judged by CPU per request (reference ÷ service).
    const together = sideBySide && service.cpuPid !== undefined && reference.cpuPid !== undefined;
    if (together) {
      [s, r] = await Promise.all([runLoad({ ...opts, ...service }), runLoad({ ...opts, ...reference })]);
    } else if (round % 2 === 0) {
      r = await runLoad({ ...opts, ...reference });
      s = await runLoad({ ...opts, ...service });
    } else {
      s = await runLoad({ ...opts, ...service });
      r = await runLoad({ ...opts, ...reference });
    }
    const ratio = together ? r.cpuUsPerRequest! / s.cpuUsPerRequest! : s.rps / r.rps;
    const label = together ? `${name}, side by side, per CPU-second` : name;
    const c = { size, case: `${label}, round ${round + 1}`, service: s, reference: r, referenceName, ratio, target };
    const counters = countersCell(c);
    const cpu =
      (s.cpuUsPerRequest !== null && r.cpuUsPerRequest !== null
        ? `; CPU ${s.cpuUsPerRequest.toFixed(0)} vs ${r.cpuUsPerRequest.toFixed(0)} µs/req`
        : '') +
      sleepsNote(s, r, together) +
      (counters === NOT_MEASURED ? '' : `; cycles ${counters}`);
    log(
      `${size} ${label}: ${s.rps.toFixed(0)} vs ${referenceName} ${r.rps.toFixed(0)} req/s, ratio ${c.ratio.toFixed(2)}x (target ${target}x)${cpu}`,
    );
    results.push(c);
  }
  return results;
}

/**
 * How often the load generator slept per 100 answers: of each server when they ran one after the other;
 * side by side both loads count the same process's sleeps, so once, per 100 answers of either.
 */
function sleepsNote(s: LoadResult, r: LoadResult, together: boolean): string {
  if (s.clientSleepsPerRequest === null || r.clientSleepsPerRequest === null) return '';
  if (!together)
    return `; load generator asleep ${(s.clientSleepsPerRequest * 100).toFixed(0)} / ${(r.clientSleepsPerRequest * 100).toFixed(0)} times per 100 answers`;
  const slept = s.clientSleepsPerRequest * s.requests;
  return `; load generator asleep ${((slept * 100) / (s.requests + r.requests)).toFixed(0)} times per 100 answers of either`;
}

/**
 * The word of six letters or more that most of the given texts contain, other than the technician's own
 * names (those would make the query repeat the technician filter): a realistic, common query.
 */
function commonWord(texts: string[], exclude: string[]): string {
  const skip = new Set(exclude.flatMap((name) => name.toLowerCase().match(/[a-z]+/g) ?? []));
  const counts = new Map<string, number>();
  for (const t of texts)
    for (const w of new Set(t.toLowerCase().match(/[a-z]{6,}/g) ?? [])) if (!skip.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  return sorted[0]?.[0] ?? 'service';
}

interface Published {
  business: { technicians: { id: string; name: string; aliases: string[] }[] };
  reviews: { text: string; mentions: { technicians: { id: string }[] } }[];
}

async function benchSize(size: number, comparisons: Comparison[], starts: Startup[]): Promise<void> {
  const tmp: TempDir = createTempDir();
  try {
    log(`${size}: generating the dataset in ${tmp.path}`);
    const file = writeLargeDataset(tmp.path, size);
    const db = sqliteUrl(tmp.path);
    const importMs = await importDataset(file, db);
    log(`${size}: imported in ${importMs} ms`);

    const startup: Startup = { size, importMs, firstOkMs: [], listeningMs: [], cpuMs: [], target: size <= 10_000 ? 1000 : 5000 };
    for (let i = 0; i < startups; i++) {
      const s = await startService({ ...serverOptions, databaseUrl: db, logLevel: 'info' });
      await s.stop();
      startup.firstOkMs.push(s.firstOkMs);
      startup.listeningMs.push(s.listeningMs);
      startup.cpuMs.push(s.cpuMs);
      log(`${size}: start-up ${s.firstOkMs} ms to the first 200 (listening log at ${s.listeningMs} ms, ${s.cpuMs} ms CPU)`);
    }
    if (startups > 0) starts.push(startup);
    // `--cases none` (or any list without a load case): start-up only, without waiting for insights.
    if (!LOAD_CASES.some((c) => cases.has(c))) return;

    const profileDir = values['cpu-prof'];
    const service = await startService({
      ...serverOptions,
      databaseUrl: db,
      // Not the start-up measurement (that is above): on a loaded machine 100k reviews can take more
      // than the default minute to the first 200.
      timeoutMs: 600_000,
      ...(profileDir ? { nodeArgs: [...nodeArgs, '--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir, String(size))] } : {}),
    });
    try {
      log(`${size}: insights ready ${await waitForInsights(service)} ms after the first 200`);
      log(`${size}: background work done ${await waitForIdle(service)} ms later`);
      const doc = (await (await fetch(`${service.base}/reviews.json`)).json()) as Published;
      const tech = doc.business.technicians[0];
      if (!tech) throw new Error('the dataset has no technicians');
      const word = commonWord(
        doc.reviews.filter((r) => r.mentions.technicians.some((t) => t.id === tech.id)).map((r) => r.text),
        [tech.name, ...tech.aliases],
      );
      const searchUrl = `/api/reviews/search?min_rating=4&since=2023-01-01&mentions_technician=${encodeURIComponent(tech.name)}&query=${word}&limit=20`;
      const jsonServerUrl = `/reviews?rating_gte=4&date_gte=2023-01-01&q=${word}&_limit=20`;
      log(`${size}: search ${searchUrl}`);

      const datasetRoute = await captureRoute(service.base, '/reviews.json', tmp.path, true);
      const searchRoute = await captureRoute(service.base, searchUrl, tmp.path, false);
      const etag = datasetRoute.notModified!.etag;
      const baseline = await startBaseline([datasetRoute, searchRoute], tmp.path, runtime);
      try {
        if (cases.has('dataset200'))
          comparisons.push(
            ...(await compare(
              size,
              `\`/reviews.json\` 200 (${datasetConnections} conn.)`,
              0.8,
              { url: service.base + '/reviews.json', connections: datasetConnections },
              { url: baseline.base + '/reviews.json', connections: datasetConnections },
              'baseline',
            )),
          );
        const inm = { 'if-none-match': etag };
        if (cases.has('dataset304'))
          comparisons.push(
            ...(await compare(
              size,
              '`/reviews.json` 304',
              0.8,
              { url: service.base + '/reviews.json', headers: inm, expect: '3xx', cpuPid: service.child.process.pid },
              { url: baseline.base + '/reviews.json', headers: inm, expect: '3xx', cpuPid: baseline.child.process.pid },
              'baseline',
            )),
          );
        // The search of `server` against the baseline's, at the issue's 0.5x.
        const searchCase = async (label: string, server: RunningService) =>
          comparisons.push(
            ...(await compare(
              size,
              label,
              0.5,
              { url: server.base + searchUrl, cpuPid: server.child.process.pid },
              { url: baseline.base + searchUrl, cpuPid: baseline.child.process.pid },
              'baseline',
            )),
          );
        if (cases.has('search')) await searchCase('search, mixed filters', service);
        // The same search on a server that caches no search answer: what a query costs the first time
        // it is asked (the case above repeats one query, so after the warm-up it is a cache hit).
        if (cases.has('search-uncached')) {
          const uncached = await startService({
            ...serverOptions,
            databaseUrl: db,
            timeoutMs: 600_000,
            env: { ...serverOptions.env, SEARCH_CACHE_BYTES: '0' },
          });
          try {
            await waitForIdle(uncached);
            await searchCase('search, mixed filters, uncached', uncached);
          } finally {
            await uncached.stop();
          }
        }
      } finally {
        await baseline.stop();
      }

      if (!cases.has('json-server')) return;
      const jsonServer = await startJsonServer(doc.reviews, tmp.path, runtime);
      try {
        const probe = await fetch(jsonServer.base + jsonServerUrl);
        log(`${size}: json-server ${jsonServerUrl}: ${probe.status}, X-Total-Count ${probe.headers.get('x-total-count')}`);
        await probe.arrayBuffer();
        comparisons.push(
          ...(await compare(
            size,
            'search vs json-server',
            10,
            { url: service.base + searchUrl },
            { url: jsonServer.base + jsonServerUrl, tolerateTimeouts: true },
            'json-server',
          )),
        );
      } finally {
        await jsonServer.stop();
      }
    } finally {
      await service.stop();
    }
  } finally {
    tmp.remove();
  }
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Server CPU per request, service / reference, and their ratio (reference ÷ service, like the rates'). */
function cpuCell(c: Comparison): string {
  const s = c.service.cpuUsPerRequest;
  const r = c.reference.cpuUsPerRequest;
  return s === null || r === null ? 'n/a' : `${fmt(s)} / ${fmt(r)} (${fmt(r / s, 2)}x)`;
}

const NOT_MEASURED = 'n/a';

/**
 * Server cycles and instructions per request (perf-counters.ts), thousands, service / reference, and
 * the cycles' ratio (reference ÷ service): per CPU-second like the CPU time's, without the time a shared
 * host's other guests took from our vCPU.
 */
function countersCell(c: Pick<Comparison, 'service' | 'reference'>): string {
  const { service: s, reference: r } = c;
  if (
    s.kCyclesPerRequest === null ||
    r.kCyclesPerRequest === null ||
    s.kInstructionsPerRequest === null ||
    r.kInstructionsPerRequest === null
  )
    return NOT_MEASURED;
  return `${fmt(s.kCyclesPerRequest)}k / ${fmt(r.kCyclesPerRequest)}k (${fmt(r.kCyclesPerRequest / s.kCyclesPerRequest, 2)}x), instructions ${fmt(s.kInstructionsPerRequest)}k / ${fmt(r.kInstructionsPerRequest)}k`;
}

/**
 * Each case's median over its rounds, of the rates' ratio and of the CPU ratio: on a shared host one
 * round can land on a slow moment of either server, and the median is what no single round decides.
 */
function medians(comparisons: Comparison[]): string[] {
  const cases = new Map<string, Comparison[]>();
  for (const c of comparisons) {
    const key = `${fmt(c.size)} | ${c.case.replace(/, round \d+$/, '')}`;
    cases.set(key, [...(cases.get(key) ?? []), c]);
  }
  if ([...cases.values()].every((cs) => cs.length < 2)) return [];
  const cpuRatios = (cs: Comparison[]) =>
    cs.flatMap((c) =>
      c.service.cpuUsPerRequest && c.reference.cpuUsPerRequest ? [c.reference.cpuUsPerRequest / c.service.cpuUsPerRequest] : [],
    );
  return [
    '',
    '| reviews | case | rounds | median ratio | median CPU ratio (reference ÷ service) | target |',
    '|---:|---|---:|---:|---:|---:|',
    ...[...cases].map(([key, cs]) => {
      const cpu = cpuRatios(cs);
      return `| ${key} | ${cs.length} | ${fmt(lowerMedian(cs.map((c) => c.ratio)), 2)}x | ${cpu.length ? `${fmt(lowerMedian(cpu), 2)}x` : 'n/a'} | ≥ ${cs[0]!.target}x |`;
    }),
  ];
}

function report(comparisons: Comparison[], starts: Startup[]): string {
  const lines = [
    '| reviews | case | service req/s | reference req/s | ratio | target | service p50 / p99 ms | reference p50 / p99 ms | server CPU µs/req, service / reference | server cycles / req, service / reference | |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...comparisons.map(
      (c) =>
        `| ${fmt(c.size)} | ${c.case} | ${fmt(c.service.rps)} | ${fmt(c.reference.rps)} (${c.referenceName}) | ${fmt(c.ratio, 2)}x | ≥ ${c.target}x | ${c.service.p50} / ${c.service.p99} | ${c.reference.p50} / ${c.reference.p99} | ${cpuCell(c)} | ${countersCell(c)} | ${c.ratio >= c.target ? 'met' : '**missed**'} |`,
    ),
    ...medians(comparisons),
    ...(starts.length === 0
      ? []
      : [
          '',
          '| reviews | import | spawn → first 200 (median, max) | spawn → "listening" log (median) | server CPU at first 200 (median) | target | |',
          '|---:|---:|---:|---:|---:|---:|---|',
          ...starts.map((s) => {
            const ok = lowerMedian(s.firstOkMs);
            const listening = s.listeningMs.filter((x): x is number => x !== null);
            const cpu = s.cpuMs.filter((x): x is number => x !== null);
            const orNa = (xs: number[]) => (xs.length ? `${fmt(lowerMedian(xs))} ms` : 'n/a');
            return `| ${fmt(s.size)} | ${fmt(s.importMs / 1000, 1)} s | ${fmt(ok)} ms, ${fmt(Math.max(...s.firstOkMs))} ms | ${orNa(listening)} | ${orNa(cpu)} | < ${fmt(s.target)} ms | ${ok < s.target ? 'met' : '**missed**'} |`;
          }),
        ]),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const comparisons: Comparison[] = [];
  const starts: Startup[] = [];
  const onSignal = () => {
    void stopAllChildren().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (const size of sizes) await benchSize(size, comparisons, starts);
  } finally {
    await stopAllChildren();
  }
  const table = report(comparisons, starts);
  const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} CPUs, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}`;
  console.log(
    `\n${new Date().toISOString()} — ${machine}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n` +
      `build ${values.build ?? ROOT}, LOG_LEVEL ${values['log-level']}, TRUST_PROXY ${values['trust-proxy'] ?? 'unset'}\n` +
      `servers' Node flags: ${nodeArgs.join(' ') || 'none'}; ${cpus ? `servers on CPUs ${cpus}, the load generator on the first CPU it may use` : 'not pinned'}; ` +
      `${sideBySide ? 'comparisons by CPU side by side (both servers loaded at once)' : 'servers loaded one after the other'}\n` +
      `${duration} s runs, ${connections} connections, ${warmup} s warm-up\n\n${table}`,
  );
  const dir = path.join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, `foundation-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ date: new Date().toISOString(), machine, argv: process.argv.slice(2), comparisons, starts }, null, 2),
  );
}

await main();
