import { describe, expect, it } from 'vitest';
import type { DocumentCacheStore, StoredDocument } from '../../src/domain/ports.js';
import { openDocumentCache } from '../../src/snapshot/document-cache.js';
import { createRepresentation } from '../../src/snapshot/rendered-document.js';
import type { SlowRenderer } from '../../src/snapshot/renderers/document-renderer.js';

const renderer: SlowRenderer = {
  kind: 'slow',
  name: 'insights.json',
  contentType: 'application/json; charset=utf-8',
  render: () => Promise.reject(new Error('not rendered here')),
};
const T = Date.parse('2026-01-01T00:00:00Z');

function memoryStore(initial?: StoredDocument, failures = 0) {
  const rows = new Map<string, StoredDocument>(initial ? [[initial.name, initial]] : []);
  const writes: StoredDocument[] = [];
  let fail = failures;
  const store: DocumentCacheStore = {
    read: (name) => Promise.resolve(rows.get(name)),
    write(d) {
      writes.push(d);
      if (fail-- > 0) return Promise.reject(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }));
      rows.set(d.name, d);
      return Promise.resolve();
    },
  };
  return { store, rows, writes };
}

const stored: StoredDocument = {
  name: 'insights.json',
  inputHash: 'h1',
  body: '{"review_count":2}',
  lastModified: T,
  weakDate: true,
  renderedAt: '2026-01-01T00:00:01.000Z',
};
const landed = (inputHash: string, body: string, lastModified = T + 60_000) => ({
  name: 'insights.json',
  version: 3,
  document: createRepresentation(body, renderer.contentType, lastModified),
  inputHash,
});

describe('document cache', () => {
  it('seeds the stored document with its validators, never dated in the future', async () => {
    const { store } = memoryStore(stored);
    const cache = await openDocumentCache(store, [renderer], { onError: () => {}, now: () => T + 5000 });
    const seed = cache.seeded.get('insights.json')!;
    expect(seed.document.body.toString()).toBe(stored.body);
    expect(seed.document.lastModified).toBe(T);
    expect(seed.document.weakDate).toBe(true);
    expect(cache.known('insights.json')).toEqual({ inputHash: 'h1', body: stored.body });

    const early = await openDocumentCache(store, [renderer], { onError: () => {}, now: () => T - 60_000 });
    expect(early.seeded.get('insights.json')!.document.lastModified).toBe(T - 60_000);
  });

  it('writes a landed document with a new input hash only, with its date', async () => {
    const { store, rows, writes } = memoryStore(stored);
    const cache = await openDocumentCache(store, [renderer], { onError: () => {}, now: () => T + 90_000 });
    cache.persist(landed('h1', stored.body));
    const { inputHash: _none, ...unhashed } = landed('h2', '{}');
    cache.persist(unhashed);
    await cache.close();
    expect(writes).toEqual([]);

    const again = await openDocumentCache(store, [renderer], { onError: () => {}, now: () => T + 90_000 });
    again.persist(landed('h2', '{"review_count":3}'));
    await again.close();
    expect(rows.get('insights.json')).toEqual({
      name: 'insights.json',
      inputHash: 'h2',
      body: '{"review_count":3}',
      lastModified: T + 60_000,
      weakDate: false,
      renderedAt: new Date(T + 90_000).toISOString(),
    });
  });

  it('a failed write is reported and retried, not thrown', async () => {
    const { store, rows, writes } = memoryStore(undefined, 1);
    const errors: unknown[] = [];
    const cache = await openDocumentCache(store, [renderer], { onError: (e) => errors.push(e), retryMs: 1 });
    expect(cache.seeded.size).toBe(0);
    cache.persist(landed('h2', '{"review_count":3}'));
    await new Promise((r) => setTimeout(r, 50));
    await cache.close();
    expect(errors).toHaveLength(1);
    expect(writes).toHaveLength(2);
    expect(rows.get('insights.json')?.inputHash).toBe('h2');
  });

  it('a store that cannot be read is a cold start, reported', async () => {
    const errors: unknown[] = [];
    const broken: DocumentCacheStore = { read: () => Promise.reject(new Error('no table')), write: () => Promise.resolve() };
    const cache = await openDocumentCache(broken, [renderer], { onError: (e) => errors.push(e) });
    expect(cache.seeded.size).toBe(0);
    expect(errors).toHaveLength(1);
  });
});
