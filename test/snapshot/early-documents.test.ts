import { describe, expect, it } from 'vitest';
import type { DatasetState } from '../../src/domain/ports.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { createSnapshotBuilder } from '../../src/snapshot/snapshot-builder.js';
import { createSnapshotManager } from '../../src/snapshot/snapshot-manager.js';
import {
  assembleSnapshot,
  buildSnapshot,
  buildView,
  type RenderedDocuments,
  type Snapshot,
  type SnapshotBuild,
} from '../../src/snapshot/snapshot.js';
import { UNSLICED, type TimeSlicer } from '../../src/snapshot/time-slice.js';
import { openDatabase } from '../../src/storage/connect.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { business, reviews } from '../storage/fixtures.js';
import { fixtureReviews, fixtureState } from '../support/fixture.js';
import { testDocumentRenderers } from '../support/renderers.js';

/**
 * For the WebSub fan-out: a build announces its documents (the WebSub topic bytes) as soon as they are
 * rendered, before the seconds of index work at 100k reviews; readers still see only whole snapshots.
 */
const urls = createServiceUrls('http://127.0.0.1:8080');
const fast = testDocumentRenderers().list.filter((r) => r.kind === 'fast');
const TOPICS = ['reviews.json', 'feed.json', 'feed.xml'];
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A data version whose every topic differs from version 1's: one review's text changed. */
function stateAt(version: number): DatasetState {
  const id = fixtureReviews()[0]!.id;
  return { ...fixtureState(version === 1 ? {} : { patch: { [id]: { text: `Changed at version ${version}.` } } }), version };
}

/** Assembles `state` as the builder does, through `slicer`. */
function assemble(state: DatasetState, previous: Snapshot | null, slicer: TimeSlicer, onDocuments?: (r: RenderedDocuments) => void) {
  const view = buildView(state, urls);
  const parts = { view, reviewSources: view.reviews.map((r) => JSON.stringify(r)), version: state.version };
  return assembleSnapshot(parts, fast, previous, { slicer, onDocuments });
}

/** A slicer that, once `hold()` is called, keeps every pause waiting until `release()`: the index work after the documents waits. */
function holdingSlicer() {
  let held = false;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const state = { held: 0 };
  const slicer: TimeSlicer = {
    due: () => true,
    pause: () => {
      if (!held) return Promise.resolve();
      state.held++;
      return gate;
    },
  };
  return { slicer, state, hold: () => (held = true), release: () => open() };
}

/** Watches `p` settle. */
function watched(p: Promise<unknown>): { settled: boolean } {
  const state = { settled: false };
  void p.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

/** Turns of the event loop until `announced` holds something, or the build settled without announcing. */
async function announcedOrDone(announced: unknown[], build: { settled: boolean }): Promise<void> {
  while (announced.length === 0 && !build.settled) await turn();
  for (let i = 0; i < 10; i++) await turn(); // a build that was not held would finish meanwhile
}

describe('documents announced before the indexes (WebSub fan-out)', () => {
  it('assembleSnapshot announces its documents before its index work, and its snapshot holds those very representations', async () => {
    const first = (await buildSnapshot(stateAt(1), urls, fast)).snapshot;
    const gate = holdingSlicer();
    const announced: RenderedDocuments[] = [];
    const building = assemble(stateAt(2), first, gate.slicer, (r) => {
      announced.push(r);
      gate.hold();
    });
    const build = watched(building);
    await announcedOrDone(announced, build);
    // The index work is held: the build has not finished, yet every topic's new bytes exist.
    expect(build.settled).toBe(false);
    expect(gate.state.held).toBeGreaterThan(0);
    expect(announced).toHaveLength(1);
    expect(announced[0]!.version).toBe(2);
    for (const name of TOPICS) expect(announced[0]!.documents.get(name)?.etag, name).not.toBe(first.documents.get(name)?.etag);

    gate.release();
    const { snapshot } = await building;
    expect(announced).toHaveLength(1);
    // The same representations: a GET of the published snapshot serves the delivered bytes and ETag.
    for (const name of TOPICS) expect(snapshot.documents.get(name), name).toBe(announced[0]!.documents.get(name));
  });

  it('the manager announces a rebuild before publishing it; readers keep the previous snapshot until the whole new one is in', async () => {
    let version = 1;
    const gate = holdingSlicer();
    const manager = createSnapshotManager({
      store: { version: () => Promise.resolve(version) },
      build: (previous, onDocuments) => assemble(stateAt(version), previous, previous ? gate.slicer : UNSLICED, onDocuments),
      pollMs: 0,
    });
    const first = await manager.start();
    const announced: RenderedDocuments[] = [];
    const changes: Snapshot[] = [];
    manager.onDocuments((r) => {
      announced.push(r);
      gate.hold();
    });
    manager.onChange((next) => changes.push(next));

    version = 2;
    const refreshing = manager.refresh();
    const refresh = watched(refreshing);
    await announcedOrDone(announced, refresh);
    expect(refresh.settled).toBe(false);
    expect(manager.current()).toBe(first);
    expect(changes).toHaveLength(0);

    gate.release();
    const next = await refreshing;
    expect(next.version).toBe(2);
    expect(changes).toEqual([next]);
    for (const name of TOPICS) expect(next.documents.get(name), name).toBe(announced[0]!.documents.get(name));
  });

  it('a build that fails after announcing publishes nothing; the next refresh builds the same bytes again', async () => {
    let version = 1;
    let fail = false;
    const manager = createSnapshotManager({
      store: { version: () => Promise.resolve(version) },
      build: async (previous, onDocuments): Promise<SnapshotBuild> => {
        const build = await assemble(stateAt(version), previous, UNSLICED, onDocuments);
        if (fail) throw new Error('the index work failed');
        return build;
      },
      pollMs: 0,
    });
    const first = await manager.start();
    const announced: RenderedDocuments[] = [];
    manager.onDocuments((r) => announced.push(r));
    version = 2;
    fail = true;
    await expect(manager.refresh()).rejects.toThrow('the index work failed');
    expect(manager.current()).toBe(first);
    fail = false;
    const next = await manager.refresh();
    expect(announced.map((r) => r.version)).toEqual([2, 2]);
    for (const name of TOPICS) expect(next.documents.get(name)?.etag, name).toBe(announced[0]!.documents.get(name)?.etag);
  });

  it('a listener that throws never fails the build', async () => {
    const errors: unknown[] = [];
    const manager = createSnapshotManager({
      store: { version: () => Promise.resolve(1) },
      build: (previous, onDocuments) => assemble(stateAt(1), previous, UNSLICED, onDocuments),
      pollMs: 0,
      onError: (e) => errors.push(e),
    });
    manager.onDocuments(() => {
      throw new Error('listener bug');
    });
    expect((await manager.start()).version).toBe(1);
    expect(errors).toHaveLength(1);
  });

  it('the incremental builder passes its documents on before returning the snapshot that holds them', async () => {
    const handle = await openDatabase('sqlite::memory:');
    try {
      const store = createReviewStore(handle.db);
      await store.applyImport({ business: business(), reviews: reviews(5), replace: false });
      const announced: RenderedDocuments[] = [];
      const { snapshot } = await createSnapshotBuilder({ store, urls, renderers: fast }).build(null, (r) => announced.push(r));
      expect(announced).toHaveLength(1);
      expect(announced[0]!.version).toBe(snapshot.version);
      for (const name of TOPICS) expect(snapshot.documents.get(name), name).toBe(announced[0]!.documents.get(name));
    } finally {
      await handle.close();
    }
  });
});
