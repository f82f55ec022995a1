import { expect, it } from 'vitest';
import { createServiceUrls } from '../../src/domain/urls.js';
import { RenderSuperseded } from '../../src/snapshot/renderers/document-renderer.js';
import { createSnapshotManager } from '../../src/snapshot/snapshot-manager.js';
import { buildSnapshot } from '../../src/snapshot/snapshot.js';
import { fixtureState } from '../support/fixture.js';
import { testDocumentRenderers } from '../support/renderers.js';

/**
 * Replicas: a replica waiting for another's insights gives the wait up when a newer rendering
 * begins. That is not a failure: the manager keeps the document it has and logs nothing, while a real
 * rendering failure is still reported.
 */
it('a superseded slow rendering is dropped silently; a failed one is reported', async () => {
  const urls = createServiceUrls('http://127.0.0.1:8080');
  const fast = testDocumentRenderers().list.filter((r) => r.kind === 'fast');
  const errors: unknown[] = [];
  let version = 0;
  const manager = createSnapshotManager({
    store: { version: () => Promise.resolve(version) },
    build: async () => {
      const { snapshot } = await buildSnapshot({ ...fixtureState(), version }, urls, fast);
      const failure = version === 1 ? new Error('worker crashed') : new RenderSuperseded('insights.json');
      return { snapshot, slow: [Promise.reject(failure)] };
    },
    pollMs: 0,
    onError: (e) => errors.push(e),
  });
  await manager.start();
  version = 1;
  await manager.refresh();
  await new Promise((r) => setImmediate(r));
  expect(errors.map((e) => (e as Error).message)).toEqual(['worker crashed']);
  manager.stop();
});
