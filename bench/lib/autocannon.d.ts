// autocannon 8 ships no types: the part of its programmatic API the benchmarks use.
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    method?: string;
    timeout?: number;
    /** Requests cycled through by each connection (bench/soak.ts). */
    requests?: Request[];
    /** Requests per second across all connections. */
    overallRate?: number;
  }
  export interface Request {
    setupRequest?: (req: object) => object;
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  /** The run: a promise of its result and an emitter of per-response events. */
  interface Instance extends Promise<Result> {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    on(event: 'reqError', listener: (error: Error) => void): this;
    /** Ends the run early; the promise then resolves with what was measured. */
    stop(): void;
  }
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    duration: number;
    non2xx: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
