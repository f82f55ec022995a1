import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentCacheStore, StoredDocument } from '../../src/domain/ports.js';
import { createDocumentCacheStore } from '../../src/storage/document-cache-store.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { openTwoConnections, type FreshDatabase } from './review-store.contract.js';

const doc = (patch: Partial<StoredDocument> = {}): StoredDocument => ({
  name: 'insights.json',
  inputHash: 'a'.repeat(64),
  body: '{"review_count":2,"text":"José — ünïcode"}',
  lastModified: Date.parse('2026-01-01T00:00:07Z'),
  weakDate: false,
  renderedAt: '2026-01-01T00:00:09.123Z',
  ...patch,
});

/** The document cache's contract (issue 15): what one process writes, a later one (or a replica) reads. */
export function describeDocumentCacheStoreContract(name: string, fresh: () => Promise<FreshDatabase>): void {
  describe(`DocumentCacheStore contract: ${name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    /** Two stores on two connections to one database: a process and the one after its restart. */
    async function openTwo(): Promise<[DocumentCacheStore, DocumentCacheStore, () => Promise<number>]> {
      const [a, b] = await openTwoConnections(fresh, cleanups);
      const version = () => createReviewStore(b.db).version();
      return [createDocumentCacheStore(a.db), createDocumentCacheStore(b.db), version];
    }

    it('reads nothing before the first write, then what was written, from another connection', async () => {
      const [a, b] = await openTwo();
      expect(await b.read('insights.json')).toBeUndefined();
      await a.write(doc());
      expect(await b.read('insights.json')).toEqual(doc());
      expect(await b.read('other.json')).toBeUndefined();
    });

    it('a write replaces the document of that name and keeps the others', async () => {
      const [a, b] = await openTwo();
      await a.write(doc());
      await a.write(doc({ name: 'other.json', body: '"x"' }));
      const next = doc({
        inputHash: 'b'.repeat(64),
        body: '{"review_count":3}',
        lastModified: Date.parse('2026-01-02T00:00:00Z'),
        weakDate: true,
      });
      await b.write(next);
      expect(await a.read('insights.json')).toEqual(next);
      expect((await a.read('other.json'))?.body).toBe('"x"');
    });

    it('is not a data change: the change counter does not move (no snapshot rebuild, no NOTIFY)', async () => {
      const [a, , version] = await openTwo();
      const before = await version();
      await a.write(doc());
      expect(await version()).toBe(before);
    });

    it('keeps a large body byte for byte', async () => {
      const [a, b] = await openTwo();
      const body = JSON.stringify({ faq: Array.from({ length: 20_000 }, (_, i) => `question ${i} — «${i}»`) });
      await a.write(doc({ body }));
      expect((await b.read('insights.json'))?.body).toBe(body);
    });
  });
}
