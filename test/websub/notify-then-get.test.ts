import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import type { DatasetState } from '../../src/domain/ports.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createApp } from '../../src/http/app.js';
import { testDocumentRenderers } from '../support/renderers.js';
import { createSnapshotManager } from '../../src/snapshot/snapshot-manager.js';
import { assembleSnapshot, buildView } from '../../src/snapshot/snapshot.js';
import { UNSLICED, type TimeSlicer } from '../../src/snapshot/time-slice.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createWebSubStore } from '../../src/storage/websub/index.js';
import type { CallbackClient } from '../../src/websub/callback-client.js';
import { createWebSubHub, type WebSubHub } from '../../src/websub/index.js';
import { createHubWatch } from '../support/hub-settle.js';
import { createManualTime } from '../support/manual-time.js';
import { fixtureReviews, fixtureState } from '../support/fixture.js';

// WebSub §7: a notification carries the topic's content. A subscriber that fetches the topic URL the
// moment a notification arrives must get the bytes it was sent, however long the build behind the
// change takes to publish its snapshot after its documents exist (its index work: seconds at 100k
// reviews, here a few slow slices). Repeated over many changes, since the race is one of timing.

const urls = createServiceUrls('https://reviews.example.com');
const fast = testDocumentRenderers().list.filter((r) => r.kind === 'fast');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const CALLBACK = 'https://a.example/cb';
const CHANGES = 12;

let handle: DatabaseHandle | null = null;
let hub: WebSubHub | null = null;
let app: FastifyInstance | null = null;
afterEach(async () => {
  await hub?.close();
  await app?.close();
  await handle?.close();
  hub = null;
  app = null;
  handle = null;
});

function stateAt(version: number): DatasetState {
  const id = fixtureReviews()[0]!.id;
  return { ...fixtureState(version === 1 ? {} : { patch: { [id]: { text: `Changed at version ${version}.` } } }), version };
}

it('a notification followed at once by a GET of its topic gets the same bytes, change after change', async () => {
  handle = await openDatabase('sqlite::memory:');
  const time = createManualTime();
  const watch = createHubWatch();
  const store = watch.store(createWebSubStore(handle.db, handle.dialect));

  // Every slice of a rebuild's index work takes a few milliseconds of real time: the window between a
  // build's documents and its publication, in which a notification used to be sent.
  const slow: TimeSlicer = { due: () => true, pause: () => new Promise((resolve) => setTimeout(resolve, 2)) };
  let version = 1;
  const snapshots = createSnapshotManager({
    store: { version: () => Promise.resolve(version) },
    build: (previous, onDocuments) => {
      const state = stateAt(version);
      const view = buildView(state, urls);
      const parts = { view, reviewSources: view.reviews.map((r) => JSON.stringify(r)), version: state.version };
      return assembleSnapshot(parts, fast, previous, { slicer: previous ? slow : UNSLICED, onDocuments });
    },
    pollMs: 0,
  });
  await snapshots.start();
  app = await createApp({ snapshots, urls });

  // The subscriber: on each notification, at once, a GET of the topic (as a feed reader would).
  const mismatches: string[] = [];
  let notified = 0;
  const client: CallbackClient = {
    async get(url) {
      return { ok: true, status: 200, body: new URL(url).searchParams.get('hub.challenge') ?? '' };
    },
    async post(_url, body) {
      notified++;
      const fetched = await app!.inject({ method: 'GET', url: '/feed.xml' });
      if (!fetched.rawPayload.equals(Buffer.from(body))) mismatches.push(`notification ${notified}: the topic served other bytes`);
      return { ok: true, status: 204, body: '' };
    },
    async close() {},
  };
  hub = createWebSubHub({
    config: {
      WEBSUB_LEASE_MIN: 3600,
      WEBSUB_LEASE_MAX: 2592000,
      WEBSUB_LEASE_DEFAULT: 864000,
      WEBSUB_TIMEOUT_MS: 1000,
      WEBSUB_RETRY_DELAYS: [60],
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: false,
      WEBSUB_CA_FILE: undefined,
      WEBSUB_RATE_LIMIT: 60,
      WEBSUB_CONCURRENCY: 4,
    },
    store,
    snapshots,
    urls,
    logger: quiet,
    clock: time.clock,
    scheduler: time.scheduler,
    client: watch.client(client),
  });
  const worker = hub.worker;
  hub.start();
  await watch.settle(() => worker.wake());
  const now = time.clock.now();
  await store.addIntents([
    {
      id: 'i1',
      mode: 'subscribe',
      topic: urls.feedXml,
      requestedTopic: urls.feedXml,
      callback: CALLBACK,
      secret: null,
      leaseSeconds: 3600,
      createdAt: now,
      dueAt: now,
    },
  ]);
  await watch.settle(() => worker.wake());
  expect(await store.listSubscriptions()).toHaveLength(1);

  for (let change = 0; change < CHANGES; change++) {
    version++;
    await snapshots.refresh();
    await watch.settle(() => worker.wake());
  }
  expect(notified).toBe(CHANGES);
  expect(mismatches).toEqual([]);
});
