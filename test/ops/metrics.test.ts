import client from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createServiceMetrics } from '../../src/ops/metrics.js';

/** The request families of a registry's exposition, without the process's default metrics. */
async function requestFamilies(registry: client.Registry): Promise<string> {
  const text = await registry.metrics();
  return text
    .split('\n')
    .filter((line) => /http_request/.test(line))
    .join('\n');
}

describe('request metrics', () => {
  it('expose the same counts and histogram as labelled prom-client calls, across scrapes', async () => {
    const metrics = createServiceMetrics();
    const registry = new client.Registry();
    const labelNames = ['route', 'method', 'status'] as const;
    const requests = new client.Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames,
      registers: [registry],
    });
    const latency = new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the end of the response, by route pattern, method and status.',
      labelNames,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const observe = (route: string, method: string, status: number, seconds: number) => {
      metrics.observeRequest(route, method, status, seconds);
      requests.inc({ route, method, status: String(status) });
      latency.observe({ route, method, status: String(status) }, seconds);
    };
    const batches: [string, string, number, number][][] = [
      [
        ['/reviews.json', 'GET', 304, 0.0004],
        ['/reviews.json', 'GET', 304, 0.002],
        ['/api/reviews/search', 'GET', 200, 0.03],
        ['/reviews.json', 'HEAD', 304, 0.0001],
      ],
      [],
      [
        ['/reviews.json', 'GET', 304, 0.7],
        ['/api/reviews/search', 'GET', 400, 12],
        ['/api/reviews/search', 'GET', 200, 0.004],
        // On a bucket's bound (le is inclusive), and past the last bound (+Inf only).
        ['/reviews.json', 'GET', 304, 0.005],
        ['/api/reviews/search', 'GET', 200, 10],
        ['/api/reviews/search', 'GET', 200, 11],
      ],
    ];
    for (const batch of batches) {
      for (const [route, method, status, seconds] of batch) observe(route, method, status, seconds);
      const ours = await requestFamilies(metrics.registry);
      expect(ours).toBe(await requestFamilies(registry));
      expect(ours).toContain('http_requests_total{');
    }
    expect(await requestFamilies(metrics.registry)).toMatch(
      /^http_requests_total\{route="\/reviews\.json",method="GET",status="304"\} 4$/m,
    );
  });
});
