import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { ReviewStore } from '../domain/ports.js';
import type { SyncSource, SyncStateStore } from '../domain/sync-ports.js';
import type { PlatformConnector } from './connector.js';
import { createGoogleConnector } from './google-connector.js';
import { createAccessTokens, type GoogleClient } from './google-oauth.js';
import type { PlatformHttpOptions } from './platform-http.js';
import { pushRoutePlugin, type PushRouteKit } from './push-route.js';
import { createSyncEngine, type SyncEngine, type SyncLog } from './sync-engine.js';
import { createSyncScheduler } from './sync-scheduler.js';
import { createTrustpilotConnector } from './trustpilot-connector.js';

/**
 * How long a run's claim outlives its last renewal (it is renewed every third of that while the run
 * works): the time a replica killed mid-run holds up the others. Never more than a minute, and never
 * more than two intervals, so a dead holder delays the next run by about an interval at most.
 */
export function claimLeaseMs(config: Config): number {
  return Math.min(60_000, Math.max(10_000, 2 * config.SYNC_INTERVAL_SECONDS * 1000));
}

export function platformHttp(config: Config, signal?: AbortSignal): PlatformHttpOptions {
  return { timeoutMs: config.SYNC_TIMEOUT_MS, tries: 3, baseDelayMs: 1000, maxDelayMs: 30_000, ...(signal ? { signal } : {}) };
}

export function googleClient(config: Config): GoogleClient | null {
  if (!config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET) return null;
  return { tokenUrl: new URL(config.GOOGLE_TOKEN_URL), clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET };
}

/** The settings a platform still lacks before it syncs (empty when it is configured). */
export function missingSettings(config: Config, source: SyncSource): string[] {
  const required =
    source === 'google'
      ? (['GOOGLE_LOCATION', 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'] as const)
      : (['TRUSTPILOT_BUSINESS_UNIT_ID', 'TRUSTPILOT_API_KEY'] as const);
  return required.filter((key) => config[key] === undefined);
}

/** The platforms the configuration connects (contract §3.2), each with its connector. */
export function configuredConnectors(config: Config, state: SyncStateStore, http: PlatformHttpOptions): PlatformConnector[] {
  const connectors: PlatformConnector[] = [];
  const client = googleClient(config);
  if (client && config.GOOGLE_LOCATION) {
    // GOOGLE_REFRESH_TOKEN wins; else the one `review-data connect google` stored for every replica.
    const refresh = config.GOOGLE_REFRESH_TOKEN;
    const tokens = createAccessTokens(
      client,
      () => (refresh ? Promise.resolve(refresh) : state.refreshToken('google')),
      http,
      Date.now,
      refresh ? 'replace GOOGLE_REFRESH_TOKEN (or unset it and run `review-data connect google`)' : undefined,
    );
    connectors.push(createGoogleConnector({ apiUrl: new URL(config.GOOGLE_API_URL), location: config.GOOGLE_LOCATION, tokens, http }));
  }
  if (config.TRUSTPILOT_BUSINESS_UNIT_ID && config.TRUSTPILOT_API_KEY)
    connectors.push(
      createTrustpilotConnector({
        apiUrl: new URL(config.TRUSTPILOT_API_URL),
        businessUnitId: config.TRUSTPILOT_BUSINESS_UNIT_ID,
        apiKey: config.TRUSTPILOT_API_KEY,
        http,
      }),
    );
  return connectors;
}

export interface PlatformSyncDeps {
  config: Config;
  store: ReviewStore;
  state: SyncStateStore;
  holder: string;
  log: SyncLog;
  onRun?: (source: SyncSource, outcome: 'success' | 'failed' | 'cancelled') => void;
}

export interface PlatformSync {
  engine: SyncEngine;
  sources: SyncSource[];
  /** The push route, when GOOGLE_PUSH_TOKEN is set (an app plugin, as the WebSub hub's). */
  plugin: ((app: FastifyInstance, kit: PushRouteKit) => Promise<void>) | null;
  /** The start-up runs, then the interval runs. */
  start(): void;
  close(): Promise<void>;
}

/** Live sync as the server runs it: the engine, its schedule and the push endpoint. */
export function createPlatformSync(deps: PlatformSyncDeps): PlatformSync {
  const stopping = new AbortController();
  const http = platformHttp(deps.config, stopping.signal);
  const connectors = configuredConnectors(deps.config, deps.state, http);
  const engine = createSyncEngine({
    store: deps.store,
    state: deps.state,
    connectors,
    holder: deps.holder,
    leaseMs: claimLeaseMs(deps.config),
    log: deps.log,
    signal: stopping.signal,
    ...(deps.onRun ? { onRun: deps.onRun } : {}),
  });
  const sources = connectors.map((c) => c.source);
  if (googleClient(deps.config) && !deps.config.GOOGLE_LOCATION)
    deps.log.info(
      { sync: 'google' },
      'Google sync is off until GOOGLE_LOCATION is set (review-data connect google --locations lists them)',
    );
  const scheduler = createSyncScheduler({ engine, sources, intervalMs: deps.config.SYNC_INTERVAL_SECONDS * 1000, log: deps.log });
  const token = deps.config.GOOGLE_PUSH_TOKEN;
  return {
    engine,
    sources,
    plugin: token && sources.includes('google') ? pushRoutePlugin({ token, push: (s) => scheduler.push(s) }) : null,
    start: () => scheduler.start(),
    async close() {
      stopping.abort(new DOMException('shutting down', 'AbortError'));
      await scheduler.close();
    },
  };
}
