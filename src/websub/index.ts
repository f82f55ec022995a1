import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { ServiceUrls } from '../domain/urls.js';
import type { Intent, NewIntent, WebSubStore } from '../domain/websub-ports.js';
import type { RenderedDocuments, Snapshot } from '../snapshot/snapshot.js';
import { createCallbackClient, type CallbackClient } from './callback-client.js';
import { systemClock, systemScheduler, type Clock, type HubLogger, type Scheduler } from './clock.js';
import { createHubRequestSchema, type HubRequest } from './hub-request.js';
import { hubRoutePlugin, type HubRouteKit } from './hub-route.js';
import { createGroupCommit } from './group-commit.js';
import { claimLeaseMs, createHubWorker, type HubWorker } from './hub-worker.js';
import { grantLease } from './lease.js';
import { createRateLimiter } from '../domain/rate-limit.js';
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
  snapshots: {
    current(): Snapshot;
    onChange(listener: (next: Snapshot, previous: Snapshot) => void): void;
    /** A build's documents before its indexes and publication (so the fan-out starts early): SnapshotManager's. */
    onDocuments(listener: (rendered: RenderedDocuments) => void): void;
  };
  urls: ServiceUrls;
  logger: HubLogger;
  clock?: Clock;
  scheduler?: Scheduler;
  client?: CallbackClient;
  pollMs?: number;
  /**
   * Whether other replicas may share the outbox (PostgreSQL). A lone process (SQLite) sends every
   * delivery itself, so nothing is left for helpers (HELP_DELAY_MS is 0).
   */
  shared?: boolean;
  /** Called with each delivery's outcome (delivered, gone, failed): the metrics counter. */
  onDelivery?: (outcome: string) => void;
}

export interface WebSubHub {
  /** Registers POST /api/websub/hub: pass it to createApp's `plugins`. */
  plugin(app: FastifyInstance, kit: HubRouteKit): Promise<void>;
  /** Records the first snapshot's topics (a change made while stopped is delivered now) and starts work. */
  start(): void;
  worker: HubWorker;
  close(): Promise<void>;
}

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
  const workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const worker = createHubWorker({
    store: deps.store,
    client,
    content,
    hubUrl: deps.urls.hub,
    clock,
    scheduler: deps.scheduler ?? systemScheduler,
    logger: deps.logger,
    workerId,
    concurrency: config.WEBSUB_CONCURRENCY,
    timeoutMs: config.WEBSUB_TIMEOUT_MS,
    retryDelaysSeconds: config.WEBSUB_RETRY_DELAYS,
    ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}),
    ...(deps.shared === false ? { helpDelayMs: 0 } : {}),
    ...(deps.onDelivery ? { onDelivery: deps.onDelivery } : {}),
  });
  const lease = { min: config.WEBSUB_LEASE_MIN, max: config.WEBSUB_LEASE_MAX, default: config.WEBSUB_LEASE_DEFAULT };

  // Concurrent hub requests share one transaction (one fsync): see group-commit.ts.
  const intentWrites = createGroupCommit(async (intents: NewIntent[]) => {
    await deps.store.addIntents(intents);
    return intents.map(() => undefined);
  });

  /**
   * Stores the request durably before the 202, already claimed by this process, which verifies it once
   * the 202 is sent. The claim also keeps other replicas from verifying before that (contract §6); if
   * this process dies, the claim lapses and another replica, or the restart, verifies it.
   */
  async function accept(request: HubRequest): Promise<Intent> {
    const now = clock.now();
    const intent: NewIntent = {
      id: randomUUID(),
      mode: request.mode,
      topic: request.topic.url,
      requestedTopic: request.requestedTopic,
      callback: request.callback,
      secret: request.secret,
      leaseSeconds: grantLease(request.requestedLease, lease),
      createdAt: now,
      dueAt: now,
      claim: { worker: workerId, until: now + claimLeaseMs(config.WEBSUB_TIMEOUT_MS) },
    };
    await intentWrites.add(intent);
    return intent;
  }

  // The fan-out's work starts as soon as a build's topic bytes exist, not after its seconds of index work
  // at 100k reviews: their hashes are recorded and the deliveries enqueued. They are sent once the
  // snapshot that holds those bytes is published, which wakes the worker again: a notification never
  // describes content the topic URL does not serve yet.
  deps.snapshots.onDocuments((rendered) => {
    content.announce(rendered);
    worker.wake();
  });
  deps.snapshots.onChange(() => worker.wake());
  let closed = false;
  return {
    plugin: hubRoutePlugin({
      schema: createHubRequestSchema(topics),
      limiter: createRateLimiter({ perMinute: config.WEBSUB_RATE_LIMIT, clock }),
      accept,
      accepted: (intent) => worker.verifyClaimed(intent),
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
