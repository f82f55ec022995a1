import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { ServiceUrls } from '../domain/urls.js';
import type { WebSubStore } from '../domain/websub-ports.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { createCallbackClient, type CallbackClient } from './callback-client.js';
import { systemClock, systemScheduler, type Clock, type HubLogger, type Scheduler } from './clock.js';
import { createHubRequestSchema, type HubRequest } from './hub-request.js';
import { hubRoutePlugin } from './hub-route.js';
import { createHubWorker, type HubWorker } from './hub-worker.js';
import { grantLease } from './lease.js';
import { createRateLimiter } from './rate-limit.js';
import { createTopicContentSource } from './topic-content.js';
import { createTopicSet } from './topic-url.js';

export type WebSubConfig = Pick<
  Config,
  | 'WEBSUB_LEASE_MIN'
  | 'WEBSUB_LEASE_MAX'
  | 'WEBSUB_LEASE_DEFAULT'
  | 'WEBSUB_TIMEOUT_MS'
  | 'WEBSUB_RETRY_DELAYS'
  | 'WEBSUB_ALLOW_PRIVATE_CALLBACKS'
  | 'WEBSUB_CA_FILE'
  | 'WEBSUB_RATE_LIMIT'
  | 'WEBSUB_CONCURRENCY'
>;

export interface WebSubHubDeps {
  config: WebSubConfig;
  store: WebSubStore;
  snapshots: { current(): Snapshot; onChange(listener: (next: Snapshot, previous: Snapshot) => void): void };
  urls: ServiceUrls;
  logger: HubLogger;
  clock?: Clock;
  scheduler?: Scheduler;
  client?: CallbackClient;
  pollMs?: number;
}

export interface WebSubHub {
  /** Registers POST /api/websub/hub: pass it to createApp's `plugins`. */
  plugin(app: FastifyInstance): Promise<void>;
  /** Records the first snapshot's topics (a change made while stopped is delivered now) and starts work. */
  start(): void;
  worker: HubWorker;
  close(): Promise<void>;
}

/**
 * How long a new intent waits before any replica's poll may take it. The replica that answered 202
 * verifies at once after sending it; this delay only keeps other replicas from verifying before the
 * 202 is out (contract §6), and picks the intent up if that replica died.
 */
const INTENT_HANDOFF_MS = 2000;

/** The WebSub hub (contract §6): the route, the worker and the callback client, wired together. */
export function createWebSubHub(deps: WebSubHubDeps): WebSubHub {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const topics = createTopicSet(deps.urls);
  const client =
    deps.client ??
    createCallbackClient({
      timeoutMs: config.WEBSUB_TIMEOUT_MS,
      allowPrivate: config.WEBSUB_ALLOW_PRIVATE_CALLBACKS,
      caFile: config.WEBSUB_CA_FILE,
    });
  const content = createTopicContentSource({ store: deps.store, topics, snapshots: deps.snapshots, clock });
  const worker = createHubWorker({
    store: deps.store,
    client,
    content,
    hubUrl: deps.urls.hub,
    clock,
    scheduler: deps.scheduler ?? systemScheduler,
    logger: deps.logger,
    workerId: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    concurrency: config.WEBSUB_CONCURRENCY,
    timeoutMs: config.WEBSUB_TIMEOUT_MS,
    retryDelaysSeconds: config.WEBSUB_RETRY_DELAYS,
    ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}),
  });
  const lease = { min: config.WEBSUB_LEASE_MIN, max: config.WEBSUB_LEASE_MAX, default: config.WEBSUB_LEASE_DEFAULT };

  async function accept(request: HubRequest): Promise<string> {
    const id = randomUUID();
    const now = clock.now();
    await deps.store.addIntent({
      id,
      mode: request.mode,
      topic: request.topic.url,
      requestedTopic: request.requestedTopic,
      callback: request.callback,
      secret: request.secret,
      leaseSeconds: grantLease(request.requestedLease, lease),
      createdAt: now,
      dueAt: now + INTENT_HANDOFF_MS,
    });
    return id;
  }

  deps.snapshots.onChange(() => worker.wake());
  let closed = false;
  return {
    plugin: hubRoutePlugin({
      schema: createHubRequestSchema(topics),
      limiter: createRateLimiter({ perMinute: config.WEBSUB_RATE_LIMIT, clock }),
      accept,
      accepted: (id) => worker.verifyNow(id),
    }),
    start: () => worker.start(),
    worker,
    async close() {
      if (closed) return;
      closed = true;
      await worker.stop();
      if (!deps.client) await client.close();
    },
  };
}
