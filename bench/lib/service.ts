/**
 * The real service, driven the way an operator drives it: `review-data import` into a fresh SQLite
 * database, then `review-data serve` on a free port of 127.0.0.1 (from dist/: run `npm run build` first).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, HOST, nodeCommand, runToCompletion, startChild, waitForOk, type Child, type Runtime } from './processes.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'index.js');

function cli(root = ROOT): string {
  const file = root === ROOT ? CLI : path.join(root, 'dist', 'cli', 'index.js');
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  return file;
}

export function sqliteUrl(dir: string): string {
  return `sqlite:${path.join(dir, 'db.sqlite')}`;
}

/** Imports `file` with the real CLI; returns the wall time in ms. */
export async function importDataset(file: string, databaseUrl: string, timeoutMs = 600_000): Promise<number> {
  const started = Date.now();
  // The bench datasets carry the demo's business, as init writes it: published as they are.
  await runToCompletion(
    process.execPath,
    [cli(), 'import', '--allow-example-values', file],
    { ...process.env, DATABASE_URL: databaseUrl },
    timeoutMs,
  );
  return Date.now() - started;
}

/**
 * The stat fields after the command name (parenthesized, may contain spaces) of a process or, with
 * `thread`, one of its threads; null when it is gone or /proc is missing (not Linux).
 */
function statFields(pid: number, thread?: number): string[] | null {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The live child processes of `pid` (the server's insights worker is one). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d) && statFields(Number(d))?.[1] === String(pid))
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * Resident memory in MB (VmRSS from /proc, all threads; Linux) of a process and its live children: the
 * server computes insights in a child process, whose memory is the service's while it runs.
 */
export function rssMb(pid: number): number {
  let total = 0;
  for (const p of [pid, ...childrenOf(pid)]) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) total += Number(m[1]) / 1024;
      else if (p === pid) return Number.NaN;
    } catch {
      if (p === pid) return Number.NaN;
    }
  }
  return total;
}

/**
 * CPU time in ms from /proc (Linux; null elsewhere): with `thread`, that one thread's utime + stime (the
 * main thread's id is the process's); without, the process's, its exited children's (cutime + cstime:
 * Node reaps them) and its live children's, so the insights worker process counts as the server's CPU
 * as its thread used to. Clock ticks are 100 Hz on Linux.
 */
export function processCpuMs(pid: number, thread?: number): number | null {
  const fields = statFields(pid, thread);
  if (!fields) return null;
  if (thread !== undefined) return (Number(fields[11]) + Number(fields[12])) * 10;
  let ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  for (const child of childrenOf(pid)) {
    const f = statFields(child);
    if (f) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * 10;
}

/**
 * Waits until /insights.json is ready: insights are computed in a worker after the snapshot is published,
 * and that work must not share the CPU with a measured run.
 */
export async function waitForInsights(service: RunningService, timeoutMs = 600_000): Promise<number> {
  const started = Date.now();
  await waitForOk(`${service.base}/insights.json`, service.child, timeoutMs, 200);
  return Date.now() - started;
}

/**
 * Waits until the server is quiet: less than `maxShare` of one core over a one-second window. After the
 * first insights of a fresh import the server still writes per-review analyses and public JSON back in
 * the background (minutes of CPU at 100k): a steady-state measurement must not share the CPU with that
 * one-time work. Returns the ms waited.
 */
export async function waitForIdle(service: RunningService, maxShare = 0.05, timeoutMs = 600_000): Promise<number> {
  const pid = service.child.process.pid;
  const started = Date.now();
  if (pid === undefined || processCpuMs(pid) === null) return 0;
  for (;;) {
    const before = processCpuMs(pid)!;
    await new Promise((r) => setTimeout(r, 1000));
    const used = processCpuMs(pid)! - before;
    if (used <= 1000 * maxShare) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`the server did not go quiet within ${timeoutMs} ms`);
  }
}

export interface RunningService {
  child: Child;
  base: string;
  /** Spawn to the first 200 from /reviews.json (status line received), ms. */
  firstOkMs: number;
  /** The server's own "listening" log time minus the spawn time, ms (null when the log is not shown). */
  listeningMs: number | null;
  /** CPU time (user + system) the server had used at its first 200, ms: less sensitive to a busy machine. */
  cpuMs: number | null;
  stop(): Promise<void>;
}

export interface ServeOptions extends Runtime {
  databaseUrl: string;
  /** `warn` for load runs; `info` shows Fastify's "Server listening" line with its timestamp. */
  logLevel?: string;
  timeoutMs?: number;
  /** Extra environment for the server (e.g. SEARCH_CACHE_BYTES=0). */
  env?: Record<string, string>;
  /** A package directory holding another build's `dist/` (a before and an after in one run); this one by default. */
  build?: string;
}

export async function startService(options: ServeOptions): Promise<RunningService> {
  const port = await freePort();
  let listeningAt: number | null = null;
  const env = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    PORT: String(port),
    HOST,
    LOG_LEVEL: options.logLevel ?? 'warn',
    DEMO_ON_EMPTY: 'false',
    ...options.env,
  };
  const { command, args } = nodeCommand([cli(options.build), 'serve'], options);
  const child = startChild(command, args, env, (line) => {
    if (listeningAt !== null || !line.startsWith('{')) return;
    try {
      const entry = JSON.parse(line) as { msg?: string; time?: string | number };
      if (entry.msg?.includes('listening') && entry.time !== undefined) listeningAt = new Date(entry.time).getTime();
    } catch {
      // Not a log line.
    }
  });
  const base = `http://${HOST}:${port}`;
  try {
    const okAt = await waitForOk(`${base}/reviews.json`, child, options.timeoutMs ?? 60_000, 5);
    const cpuMs = child.process.pid === undefined ? null : processCpuMs(child.process.pid);
    return {
      child,
      base,
      firstOkMs: okAt - child.spawnedAt,
      listeningMs: listeningAt === null ? null : listeningAt - child.spawnedAt,
      cpuMs,
      stop: () => child.stop(),
    };
  } catch (error) {
    await child.stop(1000);
    throw error;
  }
}
