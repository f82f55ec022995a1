/**
 * Scale-out benchmarks: PostgreSQL against SQLite for reads, and WebSub fan-out with one and
 * three replicas on one PostgreSQL.
 *
 *   npm run build && npx tsx bench/pg-scale.ts [--reviews 10000] [--duration 10] [--rounds 2] [--subscribers 1000]
 *
 * Reads: one replica on SQLite and one on PostgreSQL, same data, measured alternately in the same run
 * with autocannon; PostgreSQL's own counters (pg_stat_database, pg_stat_user_tables) show what the read
 * load cost it. Fan-out: an HTTPS subscriber server (test CA) with N callbacks spread over the three
 * topics, subscribed through the hub; a CLI import; the time until every callback has its POST.
 * Prints markdown to stdout and writes JSON to bench/results/.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { generateDemo, DEMO_SEED } from '../scripts/generate-demo.js';
import { createTestDatabase, probePostgres, type TestDatabase } from '../test/support/postgres.js';
import { PACKAGE_ROOT, runCli, startReplica, type Replica } from '../test/support/replica.js';
import { startSubscriber, type TestSubscriber } from '../test/support/subscriber.js';
import { createTestPki } from '../test/support/test-ca.js';

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    subscribers: { type: 'string', default: '1000' },
    changes: { type: 'string', default: '3' },
    only: { type: 'string', default: 'reads,fanout' },
    'fanout-reviews': { type: 'string', default: '100' },
    // Seconds between a change's last delivery and the next change. Past the insights worker's idle exit
    // (WORKER_IDLE_MS, 10 s) every change starts a new worker, as changes minutes apart do in production.
    gap: { type: 'string', default: '2' },
    // Fan-out: each replica writes a V8 CPU profile into this directory, and windows.json names each
    // change's window on the same monotonic clock (summarize with bench/lib/cpu-profile.ts).
    'cpu-prof': { type: 'string' },
  },
});
const REVIEWS = Number(values.reviews);
const DURATION = Number(values.duration);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const SUBSCRIBERS = Number(values.subscribers);
const CHANGES = Number(values.changes);
const ONLY = new Set(values.only.split(','));
const BASE_URL = 'https://reviews.example.test';
const TOPICS = ['/feed.xml', '/api/feed.json', '/reviews.json'];

const log = (msg: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}

/** N reviews built from the demo generator, one 600-review block per seed, ids made unique per block. */
function dataset(count: number) {
  const reviews = [];
  let business;
  for (let block = 0; reviews.length < count; block++) {
    const demo = generateDemo(DEMO_SEED + block);
    business ??= demo.business;
    for (const r of demo.reviews) if (reviews.length < count) reviews.push({ ...r, id: `b${block}-${r.id}` });
  }
  return { business, reviews };
}

async function load(url: string): Promise<{ rps: number; p99: number }> {
  const opts = { url, connections: CONNECTIONS, timeout: 30 };
  await autocannon({ ...opts, duration: 2 });
  const r = await autocannon({ ...opts, duration: DURATION });
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx`);
  return { rps: r.requests.total / r.duration, p99: r.latency.p99 };
}

interface PgCounters {
  xacts: number;
  reviewScans: number;
}

async function counters(client: pg.Client, db: string): Promise<PgCounters> {
  await client.query('select pg_stat_clear_snapshot()');
  const d = await client.query<{ x: string }>('select (xact_commit + xact_rollback)::text as x from pg_stat_database where datname = $1', [
    db,
  ]);
  const t = await client.query<{ s: string }>(
    "select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::text as s from pg_stat_user_tables where relname = 'reviews'",
  );
  return { xacts: Number(d.rows[0]?.x ?? 0), reviewScans: Number(t.rows[0]?.s ?? 0) };
}

// PostgreSQL 15 flushes an idle backend's statistics within 10 s (PGSTAT_IDLE_INTERVAL): wait that long
// before reading the counters at the end of a window.
const STATS_FLUSH_MS = 11_000;

async function readBench(work: string, pgDb: TestDatabase, adminUrl: string) {
  const file = path.join(work, 'dataset.json');
  await fs.writeFile(file, JSON.stringify(dataset(REVIEWS)));
  const sqliteUrl = `sqlite:${path.join(work, 'reviews.db')}`;
  for (const url of [sqliteUrl, pgDb.url]) {
    const t = Date.now();
    const r = await runCli(['import', '--allow-example-values', file], { DATABASE_URL: url }, 600_000);
    if (r.code !== 0) throw new Error(r.stderr);
    log(`imported ${REVIEWS} reviews into ${url.split(':')[0]} in ${Date.now() - t} ms`);
  }
  const env = { BASE_URL, DEMO_ON_EMPTY: 'false', LOG_LEVEL: 'warn' };
  const sqlite = await startReplica('sqlite', { ...env, DATABASE_URL: sqliteUrl }, 120_000);
  const postgres = await startReplica('postgres', { ...env, DATABASE_URL: pgDb.url }, 120_000);
  const stats = new pg.Client({ connectionString: adminUrl });
  await stats.connect();
  try {
    const cases = ['/reviews.json', '/api/reviews/search?min_rating=4&query=water&limit=20', '/feed.xml'];
    const rows: { path: string; sqlite: number; postgres: number; sqliteP99: number; postgresP99: number }[] = [];
    const before = await counters(stats, pgDb.name);
    const loadStart = Date.now();
    for (const p of cases) {
      const s: number[] = [];
      const g: number[] = [];
      const sp: number[] = [];
      const gp: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order: [Replica, number[], number[]][] = [
          [sqlite, s, sp],
          [postgres, g, gp],
        ];
        if (round % 2 === 1) order.reverse();
        for (const [replica, into, p99] of order) {
          const r = await load(replica.origin + p);
          into.push(r.rps);
          p99.push(r.p99);
          log(`${replica.name} ${p}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms`);
        }
      }
      rows.push({ path: p, sqlite: median(s), postgres: median(g), sqliteP99: median(sp), postgresP99: median(gp) });
    }
    await sleep(STATS_FLUSH_MS);
    const after = await counters(stats, pgDb.name);
    const loadSeconds = (Date.now() - loadStart) / 1000;
    // The same length of pure idleness, for comparison: what the replica costs PostgreSQL doing nothing.
    const idleStart = Date.now();
    await sleep(Math.min(loadSeconds * 1000, 60_000));
    await sleep(STATS_FLUSH_MS);
    const idleEnd = await counters(stats, pgDb.name);
    const idleSeconds = (Date.now() - idleStart) / 1000;
    const pgLoad = {
      seconds: loadSeconds,
      xactsPerSecond: (after.xacts - before.xacts) / loadSeconds,
      reviewScans: after.reviewScans - before.reviewScans,
      idleXactsPerSecond: (idleEnd.xacts - after.xacts) / idleSeconds,
    };
    return { rows, pgLoad };
  } finally {
    await stats.end();
    await sqlite.stop();
    await postgres.stop();
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; NaN elsewhere). */
async function cpuSeconds(pid: number): Promise<number> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5), counted from after the command name (which starts at field 3).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

const METRICS_TOKEN = 'pg-scale-bench';

/** Deliveries a replica has sent so far (`websub_deliveries_total{outcome="delivered"}` on its /metrics). */
async function delivered(replica: Replica): Promise<number> {
  const text = await (await fetch(`${replica.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const m = /^websub_deliveries_total\{outcome="delivered"\} (\d+)/m.exec(text);
  return m ? Number(m[1]) : 0;
}

async function fanout(work: string, adminUrl: string) {
  const db = await createTestDatabase(adminUrl);
  const pki = createTestPki();
  const caFile = path.join(work, 'ca.pem');
  await fs.writeFile(caFile, pki.caPem);
  const subscriber: TestSubscriber = await startSubscriber(pki);
  const replicas: Replica[] = [];
  const check = new pg.Client({ connectionString: db.url });
  await check.connect();
  try {
    const env = {
      DATABASE_URL: db.url,
      BASE_URL,
      DEMO_ON_EMPTY: 'false',
      LOG_LEVEL: 'warn',
      WEBSUB_CA_FILE: caFile,
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      WEBSUB_RATE_LIMIT: '0',
      METRICS_TOKEN,
    };
    const profDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : null;
    if (profDir) await fs.mkdir(profDir, { recursive: true });
    const nodeArgs = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
    const windows: { label: string; change: number; pids: number[]; startUs: number; endUs: number }[] = [];
    const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
    const seed = path.join(work, 'fanout-seed.json');
    // Few reviews: small bodies, so the figure is about the hub's coordination rather than bulk TLS.
    await fs.writeFile(seed, JSON.stringify(dataset(Number(values['fanout-reviews']))));
    if ((await runCli(['import', '--allow-example-values', seed], env)).code !== 0) throw new Error('seed import failed');
    replicas.push(await startReplica('r1', env, 120_000, nodeArgs));
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const form = new URLSearchParams({
        'hub.mode': 'subscribe',
        'hub.topic': BASE_URL + TOPICS[i % 3],
        'hub.callback': subscriber.callback(`s${i}`),
      });
      const res = await fetch(`${replicas[0]!.origin}/api/websub/hub`, { method: 'POST', body: form });
      if (res.status !== 202) throw new Error(`subscribe ${i}: ${res.status}`);
    }
    const deadline = Date.now() + 120_000;
    while ((await check.query<{ n: number }>('select count(*)::int as n from websub_subscriptions')).rows[0]?.n !== SUBSCRIBERS) {
      if (Date.now() > deadline) throw new Error('subscriptions were not all verified in 120 s');
      await sleep(200);
    }
    log(`${SUBSCRIBERS} subscriptions verified`);
    const sizes = await Promise.all(
      TOPICS.map(async (t) => `${t} ${(await (await fetch(replicas[0]!.origin + t)).arrayBuffer()).byteLength} B`),
    );
    log(`topic sizes: ${sizes.join(', ')}`);

    let change = 0;
    async function measure(
      label: string,
    ): Promise<{ ms: number[]; firstMs: number[]; duplicates: number; cpu: number[][]; subscriberCpu: number[]; split: number[][] }> {
      const cpu: number[][] = [];
      // Which replica sent how many of each change's deliveries (one replica sends a change
      // unless it falls behind, see HELP_DELAY_MS in src/websub/hub-worker.ts).
      const split: number[][] = [];
      const subscriberCpu: number[] = [];
      const ms: number[] = [];
      const firstMs: number[] = [];
      let duplicates = 0;
      for (let c = 0; c < CHANGES; c++) {
        const before = subscriber.deliveries.length;
        const cpuBefore = await Promise.all(replicas.map((r) => cpuSeconds(r.pid)));
        const sentBefore = await Promise.all(replicas.map(delivered));
        // The subscribers run in this process: their CPU is part of what the two vCPUs carry.
        const ownBefore = process.cpuUsage();
        const file = path.join(work, `change-${++change}.json`);
        const review = { ...dataset(1).reviews[0]!, id: `change-${change}`, text: `Change ${change}: prompt and tidy.` };
        await fs.writeFile(file, JSON.stringify([review]));
        const startUs = monotonicUs();
        const r = await runCli(['import', '--allow-example-values', file], env);
        if (r.code !== 0) throw new Error(r.stderr);
        const t0 = Date.now();
        const until = Date.now() + 180_000;
        while (subscriber.deliveries.length < before + SUBSCRIBERS) {
          if (Date.now() > until) throw new Error(`${label}: only ${subscriber.deliveries.length - before} deliveries in 180 s`);
          await sleep(20);
        }
        ms.push(Date.now() - t0);
        firstMs.push((subscriber.deliveries[before]?.at ?? NaN) - t0);
        await sleep(Number(values.gap) * 1000);
        const cpuAfter = await Promise.all(replicas.map((r) => cpuSeconds(r.pid)));
        const own = process.cpuUsage(ownBefore);
        const sentAfter = await Promise.all(replicas.map(delivered));
        split.push(sentAfter.map((n, k) => n - (sentBefore[k] ?? 0)));
        subscriberCpu.push(Number(((own.user + own.system) / 1e6).toFixed(2)));
        windows.push({ label, change, pids: replicas.map((r) => r.pid), startUs, endUs: monotonicUs() });
        cpu.push(cpuAfter.map((c, k) => Number((c - (cpuBefore[k] ?? NaN)).toFixed(2))));
        const paths = subscriber.deliveries.slice(before).map((d) => d.path);
        duplicates += paths.length - new Set(paths).size;
        // Where the time goes: when each tenth of the deliveries had arrived (a slow tail, or a slow start).
        const arrivals = subscriber.deliveries.slice(before, before + SUBSCRIBERS).map((d) => d.at - t0);
        const tenths = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => arrivals[Math.floor((k * SUBSCRIBERS) / 10) - 1] ?? NaN);
        log(
          `${label}: first delivery after ${firstMs.at(-1)} ms, all ${SUBSCRIBERS} after ${ms.at(-1)} ms (${paths.length - new Set(paths).size} duplicates), replica CPU s ${cpu.at(-1)?.join(' + ')}, sent by replica ${split.at(-1)?.join(' + ')}, subscribers ${subscriberCpu.at(-1)}; tenths at ${tenths.join(' ')} ms`,
        );
      }
      return { ms, firstMs, duplicates, cpu, subscriberCpu, split };
    }
    const one = await measure('1 replica');
    replicas.push(await startReplica('r2', env, 120_000, nodeArgs), await startReplica('r3', env, 120_000, nodeArgs));
    const three = await measure('3 replicas');
    if (profDir) await fs.writeFile(path.join(profDir, 'windows.json'), JSON.stringify(windows, null, 2));
    return { one, three, sizes };
  } finally {
    await Promise.allSettled(replicas.map((r) => r.stop()));
    await check.end().catch(() => {});
    await subscriber.close();
    await db.drop();
  }
}

async function main() {
  const probe = await probePostgres();
  if (!probe.ok) throw new Error(`no PostgreSQL: ${probe.reason}`);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-pg-bench-'));
  const pgDb = await createTestDatabase(probe.adminUrl);
  try {
    const reads = ONLY.has('reads') ? await readBench(work, pgDb, probe.adminUrl) : null;
    const fan = ONLY.has('fanout') ? await fanout(work, probe.adminUrl) : null;
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`;
    const out = { date: new Date().toISOString(), machine, reviews: REVIEWS, duration: DURATION, rounds: ROUNDS, reads, fanout: fan };
    await fs.mkdir(path.join(PACKAGE_ROOT, 'bench', 'results'), { recursive: true });
    await fs.writeFile(
      path.join(PACKAGE_ROOT, 'bench', 'results', `pg-scale-${out.date.replace(/[:.]/g, '-')}.json`),
      JSON.stringify(out, null, 2),
    );
    const lines = [
      `Machine: ${machine}, load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}.`,
      '',
    ];
    if (reads)
      lines.push(
        `${REVIEWS} reviews, ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} alternating rounds.`,
        '',
        '| endpoint | SQLite req/s | PostgreSQL req/s | PG / SQLite | p99 SQLite / PG (ms) |',
        '|---|---|---|---|---|',
        ...reads.rows.map(
          (r) =>
            `| \`${r.path}\` | ${r.sqlite.toFixed(0)} | ${r.postgres.toFixed(0)} | ${(r.postgres / r.sqlite).toFixed(3)} | ${r.sqliteP99} / ${r.postgresP99} |`,
        ),
        '',
        `PostgreSQL during the read load (${reads.pgLoad.seconds.toFixed(0)} s): ${reads.pgLoad.xactsPerSecond.toFixed(2)} transactions/s on the database, ` +
          `${reads.pgLoad.reviewScans} scans of the reviews table; the same replica idle: ${reads.pgLoad.idleXactsPerSecond.toFixed(2)} transactions/s.`,
        '',
      );
    if (fan)
      lines.push(
        `Fan-out: ${values['fanout-reviews']} reviews (${fan.sizes.join(', ')}), subscribers spread over the three topics, WEBSUB_CONCURRENCY default.`,
        '',
        `| fan-out to ${SUBSCRIBERS} subscribers | all delivered, median ms (runs) | first delivery, median ms | duplicates | replica CPU s per change (median run) | sent by each replica, per change |`,
        '|---|---|---|---|---|---|',
        `| 1 replica | ${median(fan.one.ms)} (${fan.one.ms.join(', ')}) | ${median(fan.one.firstMs)} | ${fan.one.duplicates} | ${fan.one.cpu.map((c) => c.join(' + ')).join('; ')} | ${fan.one.split.map((c) => c.join(' + ')).join('; ')} |`,
        `| 3 replicas | ${median(fan.three.ms)} (${fan.three.ms.join(', ')}) | ${median(fan.three.firstMs)} | ${fan.three.duplicates} | ${fan.three.cpu.map((c) => c.join(' + ')).join('; ')} | ${fan.three.split.map((c) => c.join(' + ')).join('; ')} |`,
      );
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    await pgDb.drop();
    await fs.rm(work, { recursive: true, force: true });
  }
}

await main();
