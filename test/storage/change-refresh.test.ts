import { expect, it } from 'vitest';
import type { DatasetState, ReviewStore } from '../../src/domain/ports.js';
import type { Snapshot } from '../../src/snapshot/snapshot.js';
import { createSnapshotManager } from '../../src/snapshot/snapshot-manager.js';

// A change signal that arrives while a refresh is loading concerns a write that refresh may not have
// seen: the manager must check once more instead of joining the refresh in flight and missing it.
it('re-checks after a refresh when a signal arrived during it', async () => {
  let version = 1;
  let releaseLoad: (() => void) | null = null;
  const store = {
    version: () => Promise.resolve(version),
    load: async (): Promise<DatasetState> => {
      const seen = version;
      if (releaseLoad === null && seen === 2) await new Promise<void>((r) => (releaseLoad = r));
      return { business: null, businessUpdatedAt: null, reviews: [], version: seen };
    },
  } as unknown as ReviewStore;
  const manager = createSnapshotManager({
    store,
    build: async () => {
      const s = await store.load();
      return { snapshot: { version: s.version, missing: new Set() } as unknown as Snapshot, slow: [] };
    },
    pollMs: 0,
  });
  await manager.start();
  version = 2;
  const first = manager.refresh(); // loads version 2 and waits inside load()
  await new Promise((r) => setTimeout(r, 10));
  version = 3; // a write commits while that load is in flight...
  const second = manager.refresh(); // ...and its signal arrives now
  expect(second).toBe(first);
  releaseLoad!();
  expect((await second).version).toBe(3);
  expect(manager.current().version).toBe(3);
});
