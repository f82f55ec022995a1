import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { DEFAULT_DATABASE_URL, type Config } from './config.js';
import { createServiceUrls, type ServiceUrls } from './domain/urls.js';
import type { DatasetState, ReviewStore } from './domain/ports.js';
import { createApp } from './http/app.js';
import { registerMcp } from './mcp/register-mcp.js';
import { createHiddenClassAnchors, type HiddenClassAnchors } from './ops/hidden-class-anchors.js';
import { collectGarbage, startIdleMemory } from './ops/idle-memory.js';
import { createServiceMetrics, type ServiceMetrics } from './ops/metrics.js';
import type { MemoBudgets } from './snapshot/snapshot-memo.js';
import { createMetricSources } from './storage/ops-queries.js';
import { openDocumentCache } from './snapshot/document-cache.js';
import { createDocumentRenderers } from './snapshot/renderers/index.js';
import { createSnapshotBuilder } from './snapshot/snapshot-builder.js';
import { createSnapshotManager, type SnapshotManager } from './snapshot/snapshot-manager.js';
import { lastChange } from './snapshot/snapshot.js';
import { openDatabase, type DatabaseHandle } from './storage/connect.js';
import { createAnalysisCacheStore } from './storage/analysis-cache-store.js';
import { createDocumentCacheStore } from './storage/document-cache-store.js';
import { PACKAGE_ROOT } from './package-root.js';
import { createMcpSessionStore } from './storage/mcp-session-store.js';
import { createReviewStore } from './storage/review-store.js';
import { createStoreProbe } from './storage/store-probe.js';
import { createSyncStateStore } from './storage/sync-state-store.js';
import { createWebSubStore } from './storage/websub/index.js';
import { createPlatformSync, type PlatformSync } from './sync/index.js';
import { loadTaxonomyFile } from './taxonomy-file.js';
import { createWebSubHub, type WebSubHub } from './websub/index.js';

export { PACKAGE_ROOT };
export const DEMO_DATASET = path.join(PACKAGE_ROOT, 'examples', 'demo', 'dataset.json');

/** How often a replica waiting for another's insights rendering looks for it (insights may lag: contract §1). */
const SHARED_RENDERING_POLL_MS = 500;

export interface RunningServer {
  app: FastifyInstance;
  urls: ServiceUrls;
  snapshots: SnapshotManager;
  database: DatabaseHandle;
  store: ReviewStore;
  websub: WebSubHub;
  metrics: ServiceMetrics;
  /** Live sync with the platforms the configuration connects (contract §3.2); none when unconfigured. */
  sync: PlatformSync;
  /** What the idle collection holds alive so that V8 keeps their hidden classes (ops/hidden-class-anchors.ts). */
  anchors: HiddenClassAnchors;
  /** Graceful stop: no new connections, in-flight requests finish, then the store closes. */
  close(): Promise<void>;
}

/**
 * `npm start` on an empty database loads the bundled demo (contract §1), marked as the demo so that
 * the first import of the business's own data replaces it (§3.1); data is never overwritten.
 */
async function loadDemoIfEmpty(store: ReviewStore, log: FastifyBaseLogger): Promise<void> {
  if (!(await store.isEmpty())) return;
  const records = await importDemo(store);
  log.info(
    { file: DEMO_DATASET, reviews: records },
    `database was empty: loaded the demo business (${records} reviews); the first import of your own data replaces it (see 'npx review-data init')`,
  );
}

/** Imports the bundled demo as the demo; gives the number of records. */
async function importDemo(store: ReviewStore): Promise<number> {
  // The importer (and its CSV parser) loads only when the demo is read: not at an ordinary start.
  const { importFiles } = await import('./import/import-files.js');
  const outcome = await importFiles(store, { files: [DEMO_DATASET], replace: false, assumeVerified: false, demo: true });
  if (!outcome.ok) throw new Error(`the bundled demo dataset is invalid: ${outcome.problems.length} problems`);
  return outcome.records;
}

/**
 * The bundled demo as a demo server's store holds it, for the OpenAPI description's examples (which are
 * its answers): the same loader into a database of its own, in memory, closed once read. Stamped as if
 * loaded when its newest review was written rather than now, so the description's bytes, and its ETag,
 * are the same on every replica and after restarts.
 */
export async function readDemoState(): Promise<DatasetState> {
  const database = await openDatabase('sqlite::memory:');
  try {
    const store = createReviewStore(database.db);
    await importDemo(store);
    const state = await store.load();
    const loadedAt = lastChange(state.reviews.map((r) => r.updated_at));
    return { ...state, businessUpdatedAt: loadedAt, changedAt: loadedAt };
  } finally {
    await database.close();
  }
}

/**
 * The composition root (style.md): config → store → snapshot → app. Only this module and the CLI
 * choose concrete adapters.
 */
export async function createServer(config: Config, logger: FastifyBaseLogger): Promise<RunningServer> {
  const urls = createServiceUrls(config.BASE_URL);
  const database = await openDatabase(config.DATABASE_URL, { createDirectory: config.DATABASE_URL === DEFAULT_DATABASE_URL });
  try {
    const store = createReviewStore(database.db);
    // A connected platform means the business's own reviews are on their way: the invented demo would be
    // public until the first sync succeeds (days, while Google approves API access), so it is not loaded.
    const platformConnected = config.GOOGLE_LOCATION !== undefined || config.TRUSTPILOT_BUSINESS_UNIT_ID !== undefined;
    if (config.DEMO_ON_EMPTY && !platformConnected) await loadDemoIfEmpty(store, logger);
    const taxonomies = await loadTaxonomyFile(config.INSIGHTS_TAXONOMY_FILE);
    // The last process's insights are served until this one's land, and not recomputed for equal inputs.
    // Its worker starts only for changed inputs and ends when idle; analyses are kept in the database.
    const documentStore = createDocumentCacheStore(database.db);
    const metrics = createServiceMetrics();
    // This process, as the claims in the store name it (shared insights renderings, sync runs).
    const holder = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    // PostgreSQL is the replicas' mode: there one replica renders each new insights document and the others
    // read it from the database. SQLite, one process: it renders every one itself.
    const shared =
      database.dialect === 'postgres' && config.INSIGHTS_RENDER_LEASE_MS > 0
        ? {
            store: documentStore,
            holder,
            leaseMs: config.INSIGHTS_RENDER_LEASE_MS,
            pollMs: SHARED_RENDERING_POLL_MS,
            onError: (err: unknown) => logger.warn({ err }, 'could not claim or read a shared insights rendering; rendering it here'),
          }
        : undefined;
    const renderers = createDocumentRenderers({
      taxonomies,
      known: (name) => documents.known(name),
      ...(shared ? { shared } : {}),
      onRun: (outcome) => metrics.countInsights(outcome),
      analyses: createAnalysisCacheStore(database.db),
      onCacheError: (err) => logger.warn({ err }, 'could not read or store review analyses; they are computed again'),
      feedStore: {
        store: documentStore,
        onError: (err) => logger.warn({ err }, 'could not read or store the rendered Atom feed; it is rendered again'),
      },
    });
    const documents = await openDocumentCache(
      documentStore,
      renderers.list.filter((r) => r.kind === 'slow'),
      { onError: (err) => logger.warn({ err }, 'could not read or store a rendered document; it is rendered again after a restart') },
    );
    // What each snapshot may keep of its answers (README "Limits"), given to every snapshot built.
    const budgets: MemoBudgets = {
      search: config.SEARCH_CACHE_BYTES,
      since: config.SINCE_CACHE_BYTES,
      pages: config.PAGE_CACHE_BYTES,
      replies: config.SEARCH_CACHE_BYTES,
    };
    // The first snapshot's indexes are built once the server listens: a search before then builds them.
    let listening!: () => void;
    const indexesAfter = new Promise<void>((resolve) => (listening = resolve));
    const builder = createSnapshotBuilder({
      store,
      indexesAfter,
      urls,
      renderers: renderers.list,
      seeded: documents.seeded,
      budgets,
      onError: (err) => logger.warn({ err }, "could not store the reviews' public JSON; the next start computes it again"),
    });
    const snapshots = createSnapshotManager({
      store,
      build: async (previous, onDocuments) => {
        const started = performance.now();
        const build = await builder.build(previous, onDocuments);
        metrics.observeSnapshotBuild((performance.now() - started) / 1000);
        // The slow documents (insights) render in the worker; their time is from the build's start.
        for (const landed of build.slow) {
          landed
            .then((l) => {
              metrics.observeInsights((performance.now() - started) / 1000);
              documents.persist(l);
            })
            .catch(() => undefined);
        }
        return build;
      },
      pollMs: config.SNAPSHOT_POLL_MS,
      onError: (err) => logger.warn({ err }, 'could not refresh the snapshot or render a document; serving the previous one'),
    });
    // The first snapshot reads every published review, the way that costs least (readingAll).
    await database.readingAll(() => snapshots.start());
    // PostgreSQL: every committed write NOTIFYs; refresh at once instead of waiting for the next poll,
    // which stays as the safety net. SQLite has no notifications: the poll is a cheap counter read.
    // Its module loads the PostgreSQL driver: imported in that mode only.
    const changes =
      database.dialect === 'postgres'
        ? (await import('./storage/postgres/change-listener.js')).createPostgresChangeSignal({
            url: config.DATABASE_URL,
            onError: (err) => logger.warn({ err }, 'change listener lost its PostgreSQL connection; reconnecting'),
          })
        : null;
    changes?.subscribe(() => {
      snapshots.refresh().catch((err: unknown) => logger.warn({ err }, 'could not refresh the snapshot; serving the previous one'));
    });
    const websub = createWebSubHub({
      config,
      store: createWebSubStore(database.db, database.dialect),
      shared: database.dialect === 'postgres',
      snapshots,
      urls,
      logger,
      onDelivery: (outcome) => metrics.countDelivery(outcome),
    });
    const sync = createPlatformSync({
      config,
      store,
      state: createSyncStateStore(database.db),
      holder,
      log: logger,
      onRun: (source, outcome) => metrics.countSyncRun(source, outcome),
    });
    const storeProbe = createStoreProbe({ read: () => store.version() });
    metrics.setSources(createMetricSources(database.db, () => snapshots.current().view.reviews.length));
    const mcp = async (a: FastifyInstance) => {
      const sessionStore = createMcpSessionStore(database.db);
      const { MCP_SESSION_TTL_SECONDS: sessionTtlSeconds, MCP_MAX_SESSIONS: maxSessions } = config;
      const limits = {
        maxBatch: config.MCP_MAX_BATCH,
        maxAnswerBytes: config.MCP_MAX_ANSWER_BYTES,
        sessionRateLimit: config.MCP_SESSION_RATE_LIMIT,
      };
      await registerMcp(a, {
        snapshots,
        urls,
        sessionStore,
        sessionTtlSeconds,
        maxSessions,
        limits,
      });
    };
    const anchors = createHiddenClassAnchors();
    const app = await createApp({
      snapshots,
      urls,
      logger,
      seeRequest: anchors.offerHttp,
      trustProxy: config.TRUST_PROXY,
      limits: {
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
        requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
        headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
        keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
        maxConnectionsPerAddress: config.MAX_CONNECTIONS_PER_ADDRESS,
        writeTimeoutMs: config.WRITE_TIMEOUT_MS,
      },
      ops: {
        metrics,
        ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
        // Ready once the first snapshot is published (start() above) and while the store answers; a
        // slow store is not an unreachable one (storage/store-probe.ts).
        readiness: async () => {
          const snapshot = snapshots.current();
          await storeProbe.check();
          return {
            reviews: snapshot.view.reviews.length,
            snapshot: snapshot.documents.get('reviews.json')?.etag ?? String(snapshot.version),
          };
        },
      },
      plugins: [websub.plugin, mcp, ...(sync.plugin ? [sync.plugin] : [])],
      exampleData: readDemoState,
    });
    websub.start();
    // The start-up run, then every SYNC_INTERVAL_SECONDS; a platform that is down never stops serving.
    sync.start();
    // Once idle after a build, give its memory back (resident memory: ops/idle-memory.ts); not
    // while a slow document (insights) is still being rendered for the current data.
    const idleMemory = startIdleMemory({
      current: () => {
        const s = snapshots.current();
        return s.missing.size === 0 && [...s.documentVersions.values()].every((v) => v === s.version) ? s : null;
      },
      // With a request, a response and a nextTick entry alive: a V8 matter (docs/decisions.md, "The
      // idle collection stays, and keeps one live object of each hot kind").
      collect: () => anchors.across(collectGarbage),
      onError: (err) => logger.debug({ err }, 'could not collect garbage after a build; V8 does in its own time'),
    });
    app.server.once('listening', listening);
    return {
      app,
      urls,
      snapshots,
      database,
      store,
      websub,
      metrics,
      sync,
      anchors,
      async close() {
        await sync.close();
        snapshots.stop();
        await idleMemory.stop();
        await app.close();
        await renderers.close();
        await documents.close();
        await builder.close();
        await websub.close();
        await changes?.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
