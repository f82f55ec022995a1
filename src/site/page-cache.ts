import type { Snapshot } from '../snapshot/snapshot.js';
import type { Representation } from '../snapshot/rendered-document.js';

/**
 * Pages rendered for a snapshot, kept with it (style.md: bytes and ETags once per snapshot): a new
 * snapshot starts with an empty cache, so pages are rebuilt with the data. Bounded, because /reviews
 * takes arbitrary filters (a few dozen listings are kept) and a site has a page per review.
 */
const LIMITS = { pages: 2000, listings: 64 } as const;
export type CacheBucket = keyof typeof LIMITS;
const caches = new WeakMap<Snapshot, Record<CacheBucket, Map<string, Representation>>>();

export async function cachedPage(
  snapshot: Snapshot,
  key: string,
  build: () => Promise<{ rep: Representation; cacheable: boolean }>,
  bucket: CacheBucket = 'pages',
): Promise<Representation> {
  let buckets = caches.get(snapshot);
  if (!buckets) caches.set(snapshot, (buckets = { pages: new Map(), listings: new Map() }));
  const cache = buckets[bucket];
  const hit = cache.get(key);
  if (hit) return hit;
  const { rep, cacheable } = await build();
  if (cacheable) {
    if (cache.size >= LIMITS[bucket]) cache.delete(cache.keys().next().value!);
    cache.set(key, rep);
  }
  return rep;
}
