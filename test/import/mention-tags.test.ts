import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { catalogKey } from '../../src/domain/catalog-key.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { importFiles } from '../../src/import/import-files.js';
import { datasetDocument } from '../../src/snapshot/renderers/dataset.js';
import { buildView } from '../../src/snapshot/snapshot.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createReviewStore } from '../../src/storage/review-store.js';

/**
 * Mentions are resolved in one place (the snapshot); an import keeps the tags a record lists.
 * Tags the text also yields used to be dropped at import, so they vanished when the catalog changed.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rds-tags-'));
let handle: DatabaseHandle | undefined;
afterEach(async () => {
  await handle?.close();
});

const business = (aliases: string[]) => ({
  id: 'acme',
  name: 'Acme',
  url: 'https://acme.example.com/',
  technicians: [{ id: 'mike', name: 'Mike Rivera', aliases }],
});
const record = {
  id: 'r1',
  date: '2025-01-02',
  rating: 5,
  text: 'Mike fixed the leak.',
  author: { name: 'A.' },
  source: { platform: 'google' },
  verified: true,
  mentions: { technicians: ['mike'] },
};

function write(name: string, doc: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

it('keeps a listed tag the text also yields: an export imports back unchanged, and the tag survives a catalog change', async () => {
  handle = await openDatabase('sqlite::memory:');
  const store = createReviewStore(handle.db);
  const urls = createServiceUrls('http://127.0.0.1:8080');
  const imported = await importFiles(store, {
    files: [write('a.json', { business: business(['Mike']), reviews: [record] })],
    replace: false,
    assumeVerified: false,
  });
  expect(imported.ok).toBe(true);
  expect((await store.load()).reviews[0]!.mention_tags.technicians).toEqual(['mike']);

  // Round trip (contract §3): the export's mentions (derived and listed) import back as unchanged.
  const before = buildView(await store.load(), urls);
  const stored = await store.publishedById(['r1'], catalogKey((await store.header()).business));
  // The public JSON the import stored is what the view serves.
  expect(stored).toEqual([expect.objectContaining({ publicJson: JSON.stringify(before.reviews[0]) })]);
  const exported = datasetDocument(before);
  const again = await importFiles(store, { files: [write('export.json', exported)], replace: true, assumeVerified: false });
  expect(again.ok && again.summary).toMatchObject({ added: 0, updated: 0, unchanged: 1, deleted: 0 });
  expect(await store.publishedById(['r1'], catalogKey((await store.header()).business))).toEqual(stored);
  expect(buildView(await store.load(), urls)).toEqual(before);

  // The alias goes: the text no longer yields the technician, the listed tag still names him.
  await importFiles(store, { files: [write('b.json', { business: business([]), reviews: [] })], replace: false, assumeVerified: false });
  const view = buildView(await store.load(), urls);
  expect(view.reviews[0]!.mentions.technicians).toEqual([{ id: 'mike', name: 'Mike Rivera' }]);
});
