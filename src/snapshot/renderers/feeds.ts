import { createHash } from 'node:crypto';
import type { DocumentCacheStore } from '../../domain/ports.js';
import type { PublishedView } from '../../domain/published-view.js';
import { ATOM_MEDIA_TYPE } from '../../feeds/atom-media-type.js';
import type * as AtomWriter from '../../feeds/atom.js';
import { feedReviews } from '../../feeds/feed-content.js';
import { JSON_FEED_MEDIA_TYPE, renderJsonFeed } from '../../feeds/json-feed.js';
import type { FastRenderer } from './document-renderer.js';

/** Last-Modified of a feed: the newest updated_at among its entries (contract §4). */
function feedLastModified(view: PublishedView): string {
  const stamps = feedReviews(view).map((r) => r.updated_at);
  if (stamps.length === 0) return view.updatedAt;
  return stamps.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

/** `/api/feed.json`: JSON Feed 1.1 of the 50 newest reviews. */
export const jsonFeedRenderer: FastRenderer = {
  kind: 'fast',
  name: 'feed.json',
  contentType: JSON_FEED_MEDIA_TYPE,
  render: ({ view }) => ({ body: renderJsonFeed(view), lastModified: feedLastModified(view) }),
};

/**
 * The version of the code that writes the Atom feed (`src/feeds/atom.ts` and what it calls, and the XML
 * builder it escapes and formats with). A stored rendering is keyed by it, so a release that changes the
 * feed's bytes is never served next to a feed the old code wrote: bump it with any such change
 * (`test/snapshot/code-versions.test.ts` fails until it is bumped or the change recorded as harmless).
 */
export const ATOM_CODE_VERSION = '3';

/**
 * The hash of what the Atom feed is rendered from (feeds/atom.ts reads the business, the aggregate,
 * `updatedAt`, the URLs and the 50 newest reviews) and of the code that writes it: equal hashes mean
 * equal bytes.
 */
export function atomInputHash(codeVersion: string, view: PublishedView): string {
  const { urls } = view;
  const input = {
    urls,
    review: urls.review('{id}'),
    reviewPage: urls.reviewPage('{id}'),
    business: view.business,
    aggregate: view.aggregate,
    updatedAt: view.updatedAt,
    reviews: feedReviews(view),
    // The title and description say how many reviews are samples (feed-content.ts), whichever they are.
    samples: view.sampleReviews,
  };
  return createHash('sha256').update(`atom ${codeVersion}\n`).update(JSON.stringify(input)).digest('hex');
}

export interface AtomRendererOptions {
  /** Where the last rendering is kept with its input hash across restarts (the documents table). */
  store?: DocumentCacheStore;
  /** Reading or writing the stored rendering failed: only speed is lost (it is rendered again). */
  onCacheError?(error: unknown): void;
}

/**
 * `/feed.xml`: Atom 1.0 of the same reviews as the JSON Feed. The XML builder and the writer load only
 * when the feed's inputs changed (start-up time: loading them and rendering 50 entries was about a
 * tenth of a start at 10k reviews): a start whose inputs hash to the stored rendering serves its bytes,
 * and a rebuild that leaves the newest reviews alone keeps the last ones.
 */
export function createAtomRenderer(options: AtomRendererOptions = {}): FastRenderer & { close(): Promise<void> } {
  const name = 'feed.xml';
  let writer: Promise<typeof AtomWriter> | null = null;
  let last: { inputHash: string; body: string } | undefined;
  let askedStore = false;
  let writing: Promise<void> = Promise.resolve();

  async function stored(): Promise<void> {
    askedStore = true;
    try {
      const row = await options.store?.read(name);
      if (row) last = { inputHash: row.inputHash, body: row.body };
    } catch (error) {
      options.onCacheError?.(error);
    }
  }

  return {
    kind: 'fast',
    name,
    contentType: ATOM_MEDIA_TYPE,
    async render({ view }) {
      const lastModified = feedLastModified(view);
      const inputHash = atomInputHash(ATOM_CODE_VERSION, view);
      if (!askedStore) await stored();
      if (last?.inputHash === inputHash) return { body: last.body, lastModified };
      const { renderAtomFeed } = await (writer ??= import('../../feeds/atom.js'));
      const body = renderAtomFeed(view);
      last = { inputHash, body };
      // In the background: a failure costs the next start one rendering, never this snapshot.
      const document = {
        name,
        inputHash,
        body,
        lastModified: Date.parse(lastModified),
        weakDate: false,
        renderedAt: new Date().toISOString(),
      };
      const store = options.store;
      if (store) writing = writing.then(() => store.write(document)).catch((error: unknown) => options.onCacheError?.(error));
      return { body, lastModified };
    },
    /** Waits for the write under way (the store is about to close). */
    close: () => writing,
  };
}
