/**
 * The load generator: autocannon's programmatic API, in the bench process (the servers are children).
 * A short warm-up lets the JIT and any lazily built state settle before the measured run.
 */
import autocannon from 'autocannon';
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
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: options.url,
    connections: options.connections ?? 10,
    headers: options.headers ?? {},
    timeout: options.tolerateTimeouts ? 60 : 30,
  };
  if ((options.warmup ?? 2) > 0) await autocannon({ ...base, duration: options.warmup ?? 2 });
  const cpuBefore = options.cpuPid === undefined ? null : processCpuMs(options.cpuPid);
  const r = await autocannon({ ...base, duration: options.duration ?? 10 });
  const cpuAfter = options.cpuPid === undefined ? null : processCpuMs(options.cpuPid);
  const expect = options.expect ?? '2xx';
  const good = r[expect];
  const total = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  const tolerated = options.tolerateTimeouts === true && r.errors === r.timeouts;
  if ((r.errors > 0 && !tolerated) || good !== total || (total === 0 && !tolerated))
    throw new Error(`${options.url}: ${good}/${total} ${expect}, ${r.errors} errors, ${r.timeouts} timeouts`);
  const cpuUsPerRequest = cpuBefore !== null && cpuAfter !== null && total > 0 ? ((cpuAfter - cpuBefore) * 1000) / total : null;
  return { rps: total / r.duration, p50: r.latency.p50, p99: r.latency.p99, requests: total, timeouts: r.timeouts, cpuUsPerRequest };
}
