import { describe, expect, it } from 'vitest';
import type { SearchQuery } from '../../src/domain/search-query.js';
import { createServiceUrls } from '../../src/domain/urls.js';
import { findReview, searchReviews } from '../../src/snapshot/queries.js';
import { assembleSnapshot, buildView, type Snapshot } from '../../src/snapshot/snapshot.js';
import { UNSLICED, type TimeSlicer } from '../../src/snapshot/time-slice.js';
import { fixtureReviews, fixtureState } from '../support/fixture.js';
import { testDocumentRenderers } from '../support/renderers.js';

/**
 * Start-up: a process's first snapshot is published before its indexes are built; they are
 * built in the background, and a lookup that comes first builds them on its own request. Either way
 * it answers as a snapshot whose indexes were built before it was published.
 */
const urls = createServiceUrls('http://127.0.0.1:8080');
const fast = testDocumentRenderers().list.filter((r) => r.kind === 'fast');
/** Slices that never wait for the event loop, but are not UNSLICED (a server's builds are sliced). */
const sliced: TimeSlicer = { due: () => false, pause: () => Promise.resolve() };
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

function assemble(slicer: TimeSlicer, previous: Snapshot | null = null): Promise<Snapshot> {
  const view = buildView(fixtureState(), urls);
  const parts = { view, reviewSources: view.reviews.map((r) => JSON.stringify(r)), version: 1 };
  return assembleSnapshot(parts, fast, previous, { slicer }).then((b) => b.snapshot);
}

const queries: SearchQuery[] = [
  {},
  { rating: 5, limit: 3 },
  { min_rating: 3.5, sort: 'oldest' },
  { query: 'drain', sort: 'highest' },
  { since: '2024-01-01', until: '2024-12-31', sort: 'lowest', limit: 2 },
];

function answers(snapshot: Snapshot) {
  const ids = [...fixtureReviews().map((r) => r.id), 'no-such-review'];
  return {
    searches: queries.map((q) => searchReviews(snapshot, q).json),
    reviews: ids.map((id) => findReview(snapshot, id)?.json ?? null),
  };
}

describe("a process's first snapshot, published before its indexes", () => {
  it('answers searches and id lookups at once, as a one-shot build does', async () => {
    const oneShot = answers(await assemble(UNSLICED));
    expect(oneShot.reviews.filter((r) => r !== null).length).toBeGreaterThan(10);
    expect(oneShot.searches.some((s) => JSON.parse(s).total > 0)).toBe(true);
    const first = await assemble(sliced);
    expect(answers(first)).toEqual(oneShot);
  });

  it('answers the same once the background has built the indexes', async () => {
    const oneShot = answers(await assemble(UNSLICED));
    const first = await assemble(sliced);
    await turns(50);
    expect(answers(first)).toEqual(oneShot);
    await expect(first.index.warm(UNSLICED)).resolves.toBeUndefined();
  });

  it('a rebuild (with a previous snapshot) answers the same as well', async () => {
    const oneShot = answers(await assemble(UNSLICED));
    const first = await assemble(sliced);
    expect(answers(await assemble(sliced, first))).toEqual(oneShot);
  });
});
