/**
 * The load generator: autocannon's programmatic API, in the bench process (the servers are children).
 * A short warm-up lets the JIT and any lazily built state settle before the measured run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startCounters, type Counts } from './perf-counters.js';
import { processCpuMs } from './service.js';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  /** Seconds. */
  duration?: number;
  warmup?: number;
  /** The status class every response must have; anything else fails the run. */
  expect?: '2xx' | '3xx';
  /**
   * A reference slower than the run itself (json-server at 100k) may complete nothing in time: its
   * timeouts are then part of the result, not a failure.
   */
  tolerateTimeouts?: boolean;
  /**
   * The server's pid: its CPU time (user + system, /proc) over the measured run is reported per
   * request, which a machine shared with other work inflates far less than wall-clock rates.
   */
  cpuPid?: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  timeouts: number;
  /** The server's CPU time per completed request, µs (null without cpuPid or /proc). */
  cpuUsPerRequest: number | null;
  /**
   * How often the load generator's threads went to sleep per completed request (voluntary context
   * switches, /proc; null without it). A response that finds the load generator asleep wakes it, and
   * on loopback the server's write pays for that wake-up (docs/benchmarks.md, "Side by side").
   */
  clientSleepsPerRequest: number | null;
  /** The server's CPU cycles and instructions per completed request, thousands (null without cpuPid or perf). */
  kCyclesPerRequest: number | null;
  kInstructionsPerRequest: number | null;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: options.url,
    connections: options.connections ?? 10,
    headers: options.headers ?? {},
    timeout: options.tolerateTimeouts ? 60 : 30,
  };
  if ((options.warmup ?? 2) > 0) await autocannon({ ...base, duration: options.warmup ?? 2 });
  const server = measureServer(options.cpuPid);
  const sleptBefore = ownSleeps();
  const r = await autocannon({ ...base, duration: options.duration ?? 10 });
  const sleptAfter = ownSleeps();
  const { cpuMs, counts } = await server.stop();
  const expect = options.expect ?? '2xx';
  const good = r[expect];
  const total = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  const tolerated = options.tolerateTimeouts === true && r.errors === r.timeouts;
  if ((r.errors > 0 && !tolerated) || good !== total || (total === 0 && !tolerated))
    throw new Error(`${options.url}: ${good}/${total} ${expect}, ${r.errors} errors, ${r.timeouts} timeouts`);
  const perRequest = (n: number | null | undefined, scale: number) =>
    n === null || n === undefined || total === 0 ? null : (n * scale) / total;
  return {
    rps: total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: total,
    timeouts: r.timeouts,
    cpuUsPerRequest: perRequest(cpuMs, 1000),
    clientSleepsPerRequest: perRequest(sleptBefore === null || sleptAfter === null ? null : sleptAfter - sleptBefore, 1),
    kCyclesPerRequest: perRequest(counts?.cycles, 1 / 1000),
    kInstructionsPerRequest: perRequest(counts?.instructions, 1 / 1000),
  };
}

/** The voluntary context switches of this process's threads so far (/proc); null where there is no /proc. */
function ownSleeps(): number | null {
  try {
    let n = 0;
    for (const thread of readdirSync('/proc/self/task')) {
      const status = readFileSync(`/proc/self/task/${thread}/status`, 'utf8');
      n += Number(/^voluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1] ?? 0);
    }
    return n;
  } catch {
    return null;
  }
}

/** The server's CPU time (/proc) and hardware counters (perf) over a window; null for what is unavailable. */
function measureServer(pid: number | undefined): { stop(): Promise<{ cpuMs: number | null; counts: Counts | null }> } {
  if (pid === undefined) return { stop: async () => ({ cpuMs: null, counts: null }) };
  const counters = startCounters(pid);
  const before = processCpuMs(pid);
  return {
    async stop() {
      const after = processCpuMs(pid);
      const counts = counters ? await counters.stop() : null;
      return { cpuMs: before !== null && after !== null ? after - before : null, counts };
    },
  };
}
