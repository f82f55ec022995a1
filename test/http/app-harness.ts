import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { DatasetState } from '../../src/domain/ports.js';
import { createServiceUrls, type ServiceUrls } from '../../src/domain/urls.js';
import { createApp, type AppDeps } from '../../src/http/app.js';
import { readDemoState } from '../../src/server.js';
import type { DocumentRenderer } from '../../src/snapshot/renderers/index.js';
import type { Snapshot } from '../../src/snapshot/snapshot.js';
import { fixtureState } from '../support/fixture.js';
import { renderSnapshot, testDocumentRenderers } from '../support/renderers.js';

/** The public origin the in-process apps print; never contacted. */
export const BASE_URL = 'https://reviews.example.test';

export interface TestApp {
  app: FastifyInstance;
  snapshot: Snapshot;
  urls: ServiceUrls;
}

/** An app over one fixed snapshot, with the real document renderers (as `createServer` wires them). */
export async function createTestApp(state: DatasetState = fixtureState(), deps: Partial<AppDeps> = {}): Promise<TestApp> {
  const config = loadConfig({ BASE_URL });
  const urls = createServiceUrls(config.BASE_URL);
  const snapshot = await renderSnapshot(state, urls, testDocumentRenderers().list);
  const app = await createApp({ snapshots: { current: () => snapshot }, urls, exampleData: readDemoState, ...deps });
  return { app, snapshot, urls };
}

export interface PublishedApp {
  readonly app: FastifyInstance;
  /** The snapshot served now. */
  readonly current: Snapshot;
  /** Publishes `state` as of `now` (ms) and serves it: the snapshot it became. */
  publish(state: DatasetState, now: number): Promise<Snapshot>;
}

/**
 * An app over snapshots published in turn, as the snapshot manager publishes them (fast documents at
 * once, slow ones as they land): for tests of what a publication changes. Called at a test file's top
 * level, it publishes `first` before the file's tests and closes everything after them.
 */
export function usePublishedApp(first: { state: DatasetState; now: number }): PublishedApp {
  const urls = createServiceUrls(BASE_URL);
  let renderers: DocumentRenderer[] = [];
  let closeRenderers = async () => {};
  let current: Snapshot | null = null;
  let app: FastifyInstance | null = null;
  const published: PublishedApp = {
    get app() {
      return app!;
    },
    get current() {
      return current!;
    },
    async publish(state, now) {
      current = await renderSnapshot(state, urls, renderers, { previous: current, now });
      return current;
    },
  };
  beforeAll(async () => {
    const r = testDocumentRenderers();
    renderers = r.list;
    closeRenderers = r.close;
    await published.publish(first.state, first.now);
    app = await createApp({ snapshots: { current: () => current! }, urls });
  });
  afterAll(async () => {
    await app?.close();
    await closeRenderers();
  });
  return published;
}

/** The four whole documents and their media types (contract §4). */
export const DOCUMENTS = [
  { path: '/reviews.json', type: 'application/json; charset=utf-8', topic: true },
  { path: '/insights.json', type: 'application/json; charset=utf-8', topic: false },
  { path: '/api/feed.json', type: 'application/feed+json', topic: true },
  { path: '/feed.xml', type: 'application/atom+xml; charset=utf-8', topic: true },
] as const;

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  raw: Buffer;
}

type InjectMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export async function request(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string> = {},
  method: InjectMethod = 'GET',
): Promise<Answer> {
  const res = await app.inject({ method, url, headers });
  return { status: res.statusCode, headers: res.headers, body: res.body, raw: res.rawPayload };
}

export function header(a: Answer, name: string): string | undefined {
  const v = a.headers[name.toLowerCase()];
  return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : String(v);
}

export function json<T = Record<string, unknown>>(a: Answer): T {
  return JSON.parse(a.body) as T;
}
