/**
 * The load generator: autocannon's programmatic API, in the bench process (the servers are children).
 * A short warm-up lets the JIT and any lazily built state settle before the measured run.
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  /** Seconds. */
  duration?: number;
  warmup?: number;
  /** The status class every response must have; anything else fails the run. */
  expect?: '2xx' | '3xx';
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: options.url,
    connections: options.connections ?? 10,
    headers: options.headers ?? {},
    timeout: 30,
  };
  if ((options.warmup ?? 2) > 0) await autocannon({ ...base, duration: options.warmup ?? 2 });
  const r = await autocannon({ ...base, duration: options.duration ?? 10 });
  const expect = options.expect ?? '2xx';
  const good = r[expect];
  const total = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  if (r.errors > 0 || r.timeouts > 0 || good !== total || total === 0)
    throw new Error(`${options.url}: ${good}/${total} ${expect}, ${r.errors} errors, ${r.timeouts} timeouts`);
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total };
}
