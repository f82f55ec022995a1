import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createServiceUrls, type ServiceUrls } from '../../src/domain/urls.js';
import { createApp } from '../../src/http/app.js';
import { registerMcp, type McpLimits } from '../../src/mcp/register-mcp.js';
import { type Snapshot } from '../../src/snapshot/snapshot.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import type { McpSessionStore } from '../../src/domain/mcp-session-port.js';
import { createMcpSessionStore } from '../../src/storage/mcp-session-store.js';
import { fixtureState } from '../support/fixture.js';
import { DEFAULT_MEMO_BUDGETS } from '../../src/snapshot/snapshot-memo.js';
import { renderSnapshot, testDocumentRenderers } from '../support/renderers.js';

export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';

export interface McpTestApp {
  app: FastifyInstance;
  snapshot: Snapshot;
  urls: ServiceUrls;
  mcp: Awaited<ReturnType<typeof registerMcp>>;
  database: DatabaseHandle;
  /** The origin of the listening socket, once `listen()` was called. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface McpTestOptions {
  /** A database shared with another app (the replica tests); a fresh in-memory one otherwise. */
  database?: DatabaseHandle;
  ttlSeconds?: number;
  maxSessions?: number;
  now?: () => number;
  limits?: Partial<McpLimits>;
  /** Wraps the session store (to make it fail, as a full disk would). */
  wrapSessionStore?: (store: McpSessionStore) => McpSessionStore;
  /** A snapshot other than the fixture's (the large-dataset tests). */
  snapshot?: Snapshot;
  /** SEARCH_CACHE_BYTES, the budget of kept tool-call replies (0 keeps none); the default's otherwise. */
  keptReplyBytes?: number;
}

/** The real app with the MCP endpoint over the fixture snapshot, as `createServer` wires them. */
export async function createMcpTestApp(options: McpTestOptions = {}): Promise<McpTestApp> {
  const config = loadConfig({ BASE_URL: 'http://127.0.0.1' });
  const urls = createServiceUrls(config.BASE_URL);
  const renderers = testDocumentRenderers();
  const snapshot =
    options.snapshot ??
    (await renderSnapshot(fixtureState(), urls, renderers.list, {
      budgets: { ...DEFAULT_MEMO_BUDGETS, replies: options.keptReplyBytes ?? config.SEARCH_CACHE_BYTES },
    }));
  const database = options.database ?? (await openDatabase('sqlite::memory:'));
  let mcp: McpTestApp['mcp'] | undefined;
  const app = await createApp({
    snapshots: { current: () => snapshot },
    urls,
    plugins: [
      async (a) => {
        mcp = await registerMcp(a, {
          snapshots: { current: () => snapshot },
          urls,
          sessionStore: (options.wrapSessionStore ?? ((x) => x))(createMcpSessionStore(database.db)),
          sessionTtlSeconds: options.ttlSeconds ?? 1800,
          maxSessions: options.maxSessions ?? 10_000,
          sweepIntervalMs: 0,
          // Tests open many sessions from one address; the rate limit has its own test.
          limits: { maxBatch: config.MCP_MAX_BATCH, maxAnswerBytes: config.MCP_MAX_ANSWER_BYTES, sessionRateLimit: 0, ...options.limits },
          ...(options.now ? { now: options.now } : {}),
        });
      },
    ],
  });
  return {
    app,
    snapshot,
    urls,
    mcp: mcp!,
    database,
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no TCP address');
      return `http://127.0.0.1:${address.port}`;
    },
    async close() {
      await app.close();
      await renderers.close();
      if (!options.database) await database.close();
    },
  };
}

/** Headers of a 2025-era streamable HTTP request. */
export function legacyHeaders(sessionId?: string, version = LEGACY_VERSION): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': version } : {}),
  };
}

export function rpc(id: number, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method, params };
}

export const INITIALIZE = rpc(1, 'initialize', {
  protocolVersion: LEGACY_VERSION,
  capabilities: {},
  clientInfo: { name: 'review-data-tests', version: '1.0.0' },
});
