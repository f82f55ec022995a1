import client from 'prom-client';
import { createLatencyHistogram, type LatencySeries } from './latency-histogram.js';

/** Live counts read when /metrics is scraped (gauges), from the stores, not kept in memory. */
export interface MetricSources {
  publishedReviews(): number;
  mcpSessions(): Promise<number>;
  subscriptionsByState(): Promise<Record<string, number>>;
  outboxBacklog(): Promise<number>;
  /** When each platform's last successful sync ended (contract §3.2), from the store: every replica agrees. */
  lastSyncSuccesses(): Promise<Partial<Record<string, Date>>>;
}

export interface ServiceMetrics {
  registry: client.Registry;
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  observeSnapshotBuild(seconds: number): void;
  observeInsights(seconds: number): void;
  /** An insights rendering: computed here, unchanged inputs, or another replica's document adopted. */
  countInsights(outcome: string): void;
  countDelivery(outcome: string): void;
  /** A platform sync run ended (contract §3.2): `success` or `failed`. */
  countSyncRun(source: string, outcome: string): void;
  setSources(sources: MetricSources): void;
}

type Label = 'route' | 'method' | 'status';

/**
 * The Prometheus metrics of contract §8, in their own registry (never the global one, so two servers in
 * one test process do not share counters). Gauges that mirror store state are computed on scrape.
 */
export function createServiceMetrics(): ServiceMetrics {
  const registry = new client.Registry();
  let sources: MetricSources | null = null;
  client.collectDefaultMetrics({ register: registry });
  // Requests answered per label set: the count of the label set's latency series, handed to prom-client
  // when scraped (a labelled inc() hashes its labels into a string on every call).
  const counted: { labels: Record<Label, string>; series: LatencySeries; reported: number }[] = [];
  new client.Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
    collect() {
      for (const c of counted) {
        const n = c.series.count;
        if (n > c.reported) this.inc(c.labels, n - c.reported);
        c.reported = n;
      }
    },
  });
  const latency = createLatencyHistogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of the response, by route pattern, method and status.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  registry.registerMetric(latency.metric);
  // One series per label set, found by route, method and status without building a key (routes are
  // patterns, so the sets are few); it counts the requests too.
  const byLabels = new Map<string, Map<string, Map<number, LatencySeries>>>();
  const builds = new client.Histogram({
    name: 'snapshot_build_duration_seconds',
    help: 'Snapshot builds (one per data change) and their duration.',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const insights = new client.Histogram({
    name: 'insights_computation_duration_seconds',
    help: 'Time to compute the insights document of a snapshot (in the insights worker).',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const insightsRuns = new client.Counter({
    name: 'insights_renderings_total',
    help: 'Insights renderings by outcome: computed here, unchanged (inputs equal to the last), adopted (rendered by another replica).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const deliveries = new client.Counter({
    name: 'websub_deliveries_total',
    help: 'WebSub content deliveries by outcome (delivered, gone, failed).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const syncRuns = new client.Counter({
    name: 'review_data_sync_runs_total',
    help: 'Platform sync runs this process made, by platform and outcome (success, failed).',
    labelNames: ['source', 'outcome'] as const,
    registers: [registry],
  });
  new client.Gauge({
    name: 'review_data_sync_last_success_timestamp_seconds',
    help: "When each platform's last successful sync ended (Unix seconds), whichever replica ran it.",
    labelNames: ['source'] as const,
    registers: [registry],
    async collect() {
      if (!sources) return;
      for (const [source, at] of Object.entries(await sources.lastSyncSuccesses())) if (at) this.set({ source }, at.getTime() / 1000);
    },
  });
  new client.Gauge({
    name: 'published_reviews',
    help: 'Reviews in the current snapshot (published: verified and not hidden).',
    registers: [registry],
    collect() {
      if (sources) this.set(sources.publishedReviews());
    },
  });
  new client.Gauge({
    name: 'mcp_sessions',
    help: 'Live MCP sessions.',
    registers: [registry],
    async collect() {
      if (sources) this.set(await sources.mcpSessions());
    },
  });
  new client.Gauge({
    name: 'websub_subscriptions',
    help: 'WebSub subscriptions by state (active, expired, pending verification).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      if (!sources) return;
      for (const [state, n] of Object.entries(await sources.subscriptionsByState())) this.set({ state }, n);
    },
  });
  new client.Gauge({
    name: 'websub_outbox_backlog',
    help: 'WebSub deliveries waiting in the outbox.',
    registers: [registry],
    async collect() {
      if (sources) this.set(await sources.outboxBacklog());
    },
  });
  return {
    registry,
    observeRequest(route, method, status, seconds) {
      let byMethod = byLabels.get(route);
      if (!byMethod) byLabels.set(route, (byMethod = new Map()));
      let byStatus = byMethod.get(method);
      if (!byStatus) byMethod.set(method, (byStatus = new Map()));
      let series = byStatus.get(status);
      if (!series) {
        const labels = { route, method, status: String(status) };
        series = latency.series(labels);
        counted.push({ labels, series, reported: 0 });
        byStatus.set(status, series);
      }
      series.observe(seconds);
    },
    observeSnapshotBuild: (s) => builds.observe(s),
    observeInsights: (s) => insights.observe(s),
    countInsights: (outcome) => insightsRuns.inc({ outcome }),
    countDelivery: (outcome) => deliveries.inc({ outcome }),
    countSyncRun: (source, outcome) => syncRuns.inc({ source, outcome }),
    setSources(s) {
      sources = s;
    },
  };
}
