import { afterEach, expect, it } from 'vitest';
import type { DatasetState } from '../../src/domain/ports.js';
import { createServiceUrls } from '../../src/domain/urls.js';
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
import { testDocumentRenderers } from '../support/renderers.js';

// The hub, wired to a real snapshot manager, records a rebuild's new topic bytes (and
// so enqueues the deliveries) while that rebuild's index work is still held, and sends them once the
// snapshot is published: a GET right after the notification serves exactly those bytes.

const urls = createServiceUrls('https://reviews.example.com');
const fast = testDocumentRenderers().list.filter((r) => r.kind === 'fast');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const CALLBACK = 'https://a.example/cb';

let handle: DatabaseHandle | null = null;
let hub: WebSubHub | null = null;
afterEach(async () => {
  await hub?.close();
  await handle?.close();
  hub = null;
  handle = null;
});

function stateAt(version: number): DatasetState {
  const id = fixtureReviews()[0]!.id;
  return { ...fixtureState(version === 1 ? {} : { patch: { [id]: { text: `Changed at version ${version}.` } } }), version };
}

it('the hub records the new topic before the snapshot’s index work is done, and delivers it once the snapshot is published', async () => {
  handle = await openDatabase('sqlite::memory:');
  const time = createManualTime();
  const watch = createHubWatch();
  const store = watch.store(createWebSubStore(handle.db, handle.dialect));
  const posts: { url: string; body: string }[] = [];
  const client: CallbackClient = {
    async get(url) {
      return { ok: true, status: 200, body: new URL(url).searchParams.get('hub.challenge') ?? '' };
    },
    async post(url, body) {
      posts.push({ url, body: body.toString() });
      return { ok: true, status: 204, body: '' };
    },
    async close() {},
  };

  // Index work that waits, once told to, until released: a build at 100k reviews spends seconds there.
  let hold = false;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const slicer: TimeSlicer = { due: () => true, pause: () => (hold ? held : Promise.resolve()) };
  let version = 1;
  const snapshots = createSnapshotManager({
    store: { version: () => Promise.resolve(version) },
    build: (previous, onDocuments) => {
      const state = stateAt(version);
      const view = buildView(state, urls);
      const parts = { view, reviewSources: view.reviews.map((r) => JSON.stringify(r)), version: state.version };
      return assembleSnapshot(parts, fast, previous, {
        slicer: previous ? slicer : UNSLICED,
        onDocuments: (rendered) => {
          onDocuments(rendered);
          hold = previous !== null;
        },
      });
    },
    pollMs: 0,
  });
  const first = await snapshots.start();

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
  await watch.settle(() => worker.wake()); // records version 1's topics: the baseline
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

  version = 2;
  let published = false;
  const refreshing = snapshots.refresh().then(() => (published = true));
  while (!hold) await new Promise<void>((resolve) => setImmediate(resolve));
  await watch.settle(() => worker.wake());
  // While the build is held in its index work the store knows version 2's content (the deliveries are
  // enqueued), and nothing is sent: a GET still serves version 1.
  expect(published).toBe(false);
  expect(snapshots.current()).toBe(first);
  expect((await store.topic(urls.feedXml))?.sourceVersion).toBe(2);
  expect(posts).toHaveLength(0);

  release();
  await refreshing;
  await watch.settle(() => worker.wake());
  const served = snapshots.current().documents.get('feed.xml')!;
  expect(posts.map((p) => p.body)).toEqual([served.body.toString()]);
  expect(served.contentHash).toBe((await store.topic(urls.feedXml))?.contentHash);
  expect(served.etag).not.toBe(first.documents.get('feed.xml')!.etag);
});
