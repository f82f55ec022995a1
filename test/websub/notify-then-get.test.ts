import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import type { TimeSlicer } from '../../src/snapshot/time-slice.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createWebSubStore } from '../../src/storage/websub/index.js';
import type { CallbackClient } from '../../src/websub/callback-client.js';
import type { WebSubHub } from '../../src/websub/index.js';
import { createHubWatch } from '../support/hub-settle.js';
import { createManualTime } from '../support/manual-time.js';
import { changingSnapshots, HUB_URLS as urls, subscribedHub } from '../support/subscribed-hub.js';

// WebSub §7: a notification carries the topic's content. A subscriber that fetches the topic URL the
// moment a notification arrives must get the bytes it was sent, however long the build behind the
// change takes to publish its snapshot after its documents exist (its index work: seconds at 100k
// reviews, here a few slow slices). Repeated over many changes, since the race is one of timing.

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

it('a notification followed at once by a GET of its topic gets the same bytes, change after change', async () => {
  handle = await openDatabase('sqlite::memory:');
  const time = createManualTime();
  const watch = createHubWatch();
  const store = watch.store(createWebSubStore(handle.db, handle.dialect));

  // Every slice of a rebuild's index work takes a few milliseconds of real time: the window between a
  // build's documents and its publication, in which a notification used to be sent.
  const slow: TimeSlicer = { due: () => true, pause: () => new Promise((resolve) => setTimeout(resolve, 2)) };
  const { snapshots, setVersion, version } = changingSnapshots({ slicer: slow });
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
  hub = await subscribedHub({ store, snapshots, client, time, watch });
  const worker = hub.worker;
  expect(await store.listSubscriptions()).toHaveLength(1);

  for (let change = 0; change < CHANGES; change++) {
    setVersion(version() + 1);
    await snapshots.refresh();
    await watch.settle(() => worker.wake());
  }
  expect(notified).toBe(CHANGES);
  expect(mismatches).toEqual([]);
});
