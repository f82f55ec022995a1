import { afterEach, expect, it } from 'vitest';
import { type TimeSlicer } from '../../src/snapshot/time-slice.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createWebSubStore } from '../../src/storage/websub/index.js';
import type { CallbackClient } from '../../src/websub/callback-client.js';
import type { WebSubHub } from '../../src/websub/index.js';
import { createHubWatch } from '../support/hub-settle.js';
import { createManualTime } from '../support/manual-time.js';
import { changingSnapshots, HUB_URLS as urls, subscribedHub } from '../support/subscribed-hub.js';

// The hub, wired to a real snapshot manager, records a rebuild's new topic bytes (and
// so enqueues the deliveries) while that rebuild's index work is still held, and sends them once the
// snapshot is published: a GET right after the notification serves exactly those bytes.

let handle: DatabaseHandle | null = null;
let hub: WebSubHub | null = null;
afterEach(async () => {
  await hub?.close();
  await handle?.close();
  hub = null;
  handle = null;
});

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
  const { snapshots, setVersion } = changingSnapshots({ slicer, documentsRendered: (rebuild) => (hold = rebuild) });
  const first = await snapshots.start();

  hub = await subscribedHub({ store, snapshots, client, time, watch });
  const worker = hub.worker;
  expect(await store.listSubscriptions()).toHaveLength(1);

  setVersion(2);
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
