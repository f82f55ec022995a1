import type { DatasetState } from '../../src/domain/ports.js';
import type { WebSubStore } from '../../src/domain/websub-ports.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createSnapshotManager, type SnapshotManager } from '../../src/snapshot/snapshot-manager.js';
import { assembleSnapshot, buildView, type RenderedDocuments } from '../../src/snapshot/snapshot.js';
import { UNSLICED, type TimeSlicer } from '../../src/snapshot/time-slice.js';
import type { CallbackClient } from '../../src/websub/callback-client.js';
import { createWebSubHub, type WebSubHub } from '../../src/websub/index.js';
import { fixtureReviews, fixtureState } from './fixture.js';
import type { createHubWatch } from './hub-settle.js';
import type { createManualTime } from './manual-time.js';
import { testDocumentRenderers } from './renderers.js';

/**
 * A hub over a real snapshot manager whose data changes on demand, with one subscriber to the Atom
 * feed: what the tests of "a notification carries the bytes the topic serves" share.
 */

export const HUB_URLS = createServiceUrls('https://reviews.example.com');
export const SUBSCRIBER_CALLBACK = 'https://a.example/cb';
const fast = testDocumentRenderers().list.filter((r) => r.kind === 'fast');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** The fixture at `version`: from version 2 on, its first review's text names the version. */
function stateAt(version: number): DatasetState {
  const id = fixtureReviews()[0]!.id;
  return { ...fixtureState(version === 1 ? {} : { patch: { [id]: { text: `Changed at version ${version}.` } } }), version };
}

export interface ChangingSnapshots {
  snapshots: SnapshotManager;
  /** Makes the store's next version this one: the next refresh builds it. */
  setVersion(version: number): void;
  version(): number;
}

/**
 * Snapshots of the fixture at the version `setVersion` last gave. Every rebuild after the first runs its
 * index work through `slicer`; `documentsRendered` is told when a rebuild's documents exist (before
 * that index work), after the manager has been.
 */
export function changingSnapshots(options: { slicer: TimeSlicer; documentsRendered?(rebuild: boolean): void }): ChangingSnapshots {
  let version = 1;
  const snapshots = createSnapshotManager({
    store: { version: () => Promise.resolve(version) },
    build: (previous, onDocuments) => {
      const state = stateAt(version);
      const view = buildView(state, HUB_URLS);
      const parts = { view, reviewSources: view.reviews.map((r) => JSON.stringify(r)), version: state.version };
      return assembleSnapshot(parts, fast, previous, {
        slicer: previous ? options.slicer : UNSLICED,
        onDocuments: (rendered: RenderedDocuments) => {
          onDocuments(rendered);
          options.documentsRendered?.(previous !== null);
        },
      });
    },
    pollMs: 0,
  });
  return { snapshots, setVersion: (v) => (version = v), version: () => version };
}

/**
 * A started hub on `store` whose subscriber (`client`) is subscribed to the Atom feed, once the hub
 * has recorded the current topics: the next change is the first the subscriber hears of.
 */
export async function subscribedHub(deps: {
  store: WebSubStore;
  snapshots: SnapshotManager;
  client: CallbackClient;
  time: ReturnType<typeof createManualTime>;
  watch: ReturnType<typeof createHubWatch>;
}): Promise<WebSubHub> {
  const { store, time, watch } = deps;
  const hub = createWebSubHub({
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
    snapshots: deps.snapshots,
    urls: HUB_URLS,
    logger: quiet,
    clock: time.clock,
    scheduler: time.scheduler,
    client: watch.client(deps.client),
  });
  const worker = hub.worker;
  hub.start();
  await watch.settle(() => worker.wake()); // records the current topics: the baseline
  const now = time.clock.now();
  await store.addIntents([
    {
      id: 'i1',
      mode: 'subscribe',
      topic: HUB_URLS.feedXml,
      requestedTopic: HUB_URLS.feedXml,
      callback: SUBSCRIBER_CALLBACK,
      secret: null,
      leaseSeconds: 3600,
      createdAt: now,
      dueAt: now,
    },
  ]);
  await watch.settle(() => worker.wake());
  return hub;
}
