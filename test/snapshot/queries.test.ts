import { hash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withDecodedCursor } from '../../src/domain/search-query.js';
import { searchParamsArb, searchSnapshotOf, searchTextsArb } from '../support/search-fixture.js';
import { searchAnswer, searchRepresentation, searchReviews } from '../../src/snapshot/queries.js';
import { withDocument } from '../../src/snapshot/snapshot.js';
import { createRepresentation } from '../../src/snapshot/rendered-document.js';

describe('search answers', () => {
  it('REST sends the bytes MCP answers, over every page', async () => {
    await fc.assert(
      fc.asyncProperty(searchTextsArb, searchParamsArb, async (t, params) => {
        const snapshot = await searchSnapshotOf(t);
        let cursor: string | undefined;
        for (let page = 0; page < 40; page++) {
          const query = withDecodedCursor({ ok: true, value: { ...params, ...(cursor ? { cursor } : {}) } });
          if (!query.ok) throw new Error('invalid cursor');
          const json = searchReviews(snapshot, query.value).json;
          expect(searchRepresentation(snapshot, query.value).body.toString('utf8')).toBe(json);
          cursor = (JSON.parse(json) as { next_cursor: string | null }).next_cursor ?? undefined;
          if (!cursor) break;
        }
      }),
      { numRuns: 100 },
    );
  });

  it('the ETag is equal exactly when the bytes are, across independently built snapshots', async () => {
    await fc.assert(
      fc.asyncProperty(searchTextsArb, searchTextsArb, searchParamsArb, searchParamsArb, async (ta, tb, pa, pb) => {
        const a = searchRepresentation(await searchSnapshotOf(ta), pa);
        const b = searchRepresentation(await searchSnapshotOf(tb), pb);
        expect(a.etag === b.etag).toBe(a.body.equals(b.body));
        expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      }),
      { numRuns: 200 },
    );
  });

  it("the ETag hashes its reviews' digests and its envelope, as every earlier version did", async () => {
    // Clients and caches hold these tags across deployments: the recipe is part of the public surface.
    await fc.assert(
      fc.asyncProperty(searchTextsArb, searchParamsArb, async (t, params) => {
        const snapshot = await searchSnapshotOf(t);
        const { positions, envelope, etag } = searchAnswer(snapshot, params);
        const digests = positions.map((p) => hash('sha256', snapshot.reviewBytes.bytes(p), 'base64url').slice(0, 22));
        expect(etag).toBe(`"${hash('sha256', `search:${digests.join(',')}${envelope}`, 'base64url').slice(0, 32)}"`);
        expect(searchRepresentation(snapshot, params).etag).toBe(etag);
      }),
      { numRuns: 100 },
    );
  });

  it('a tag is the same whatever was asked before on the snapshot, and in a copy with another document', async () => {
    // The review digests behind the tags are made on first use and kept in the snapshot's memo.
    await fc.assert(
      fc.asyncProperty(searchTextsArb, fc.array(searchParamsArb, { minLength: 1, maxLength: 12 }), async (t, asked) => {
        const used = await searchSnapshotOf(t);
        const copy = withDocument(used, {
          name: 'extra',
          version: used.version,
          document: createRepresentation('{}', 'application/json', 0),
        });
        for (const params of asked) {
          const fresh = searchAnswer(await searchSnapshotOf(t), params);
          expect(searchAnswer(used, params).etag).toBe(fresh.etag);
          expect(searchAnswer(copy, params).etag).toBe(fresh.etag);
        }
      }),
      { numRuns: 100 },
    );
  });
});
