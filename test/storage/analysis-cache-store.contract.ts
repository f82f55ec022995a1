import { afterEach, describe, expect, it } from 'vitest';
import type { AnalysisCacheStore } from '../../src/domain/ports.js';
import { createAnalysisCacheStore } from '../../src/storage/analysis-cache-store.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { openTwoConnections, type FreshDatabase } from './review-store.contract.js';

/** The per-review analysis cache's contract: what one worker stores, the next one reads back. */
export function describeAnalysisCacheStoreContract(name: string, fresh: () => Promise<FreshDatabase>): void {
  describe(`AnalysisCacheStore contract: ${name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    /** Two stores on two connections to one database: a process and the one after its restart. */
    async function openTwo(): Promise<[AnalysisCacheStore, AnalysisCacheStore, () => Promise<number>]> {
      const [a, b] = await openTwoConnections(fresh, cleanups);
      return [createAnalysisCacheStore(a.db), createAnalysisCacheStore(b.db), () => createReviewStore(b.db).version()];
    }

    it('reads back what was written, from another connection, leaving out unknown keys', async () => {
      const [a, b, version] = await openTwo();
      expect(await b.read(['k1'])).toEqual([]);
      await a.write('engine-1', [
        { key: 'k1', body: '{"score":1,"text":"José — ünïcode"}' },
        { key: 'k2', body: '{"score":2}' },
      ]);
      const found = await b.read(['k2', 'k1', 'k3']);
      expect(found.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
        { key: 'k1', body: '{"score":1,"text":"José — ünïcode"}' },
        { key: 'k2', body: '{"score":2}' },
      ]);
      // A cache, not data: writing it never moves the change counter (no rebuild, no WebSub fan-out).
      expect(await version()).toBe(0);
    });

    it('reads and writes more keys than one statement binds, and a key written twice keeps one row', async () => {
      const [a, b] = await openTwo();
      const many = Array.from({ length: 1234 }, (_, i) => ({ key: `k${i}`, body: `{"i":${i}}` }));
      await a.write('engine-1', many);
      await a.write('engine-1', many.slice(0, 10));
      const found = await b.read(many.map((m) => m.key));
      expect(found).toHaveLength(1234);
      expect(new Map(found.map((f) => [f.key, f.body])).get('k1233')).toBe('{"i":1233}');
    });

    it("a new engine's write drops every row of another engine", async () => {
      const [a, b] = await openTwo();
      const old = Array.from({ length: 450 }, (_, i) => ({ key: `old${i}`, body: '{}' }));
      await a.write('engine-1', old);
      await b.write('engine-2', [{ key: 'new', body: '{}' }]);
      expect((await a.read(['new', ...old.map((o) => o.key)])).map((f) => f.key)).toEqual(['new']);
    });
  });
}
