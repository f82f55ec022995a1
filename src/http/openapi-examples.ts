import type { DatasetState } from '../domain/ports.js';
import type { PublishedView } from '../domain/published-view.js';
import { sampleReviewCount } from '../domain/sample.js';
import type { ServiceUrls } from '../domain/urls.js';
import { renderJsonFeed } from '../feeds/json-feed.js';
import { reviewAnswerJson, findReview, searchRepresentation, sinceParts } from '../snapshot/queries.js';
import { datasetDocument } from '../snapshot/renderers/dataset.js';
import { buildSnapshot } from '../snapshot/snapshot.js';
import { INSIGHTS_EXAMPLE } from './insights-example.js';
import { searchQueryOf } from './routes/reviews.js';

/**
 * The OpenAPI description's 200 examples, by operationId: the service's own answers over the bundled
 * demo, computed by the builders the routes answer with when the description is first asked for, so an
 * example can never say what the server would not. The whole documents hold the demo's newest review
 * only (its aggregate and business whole); the queries are answered as asked (EXAMPLE_REQUESTS).
 * test/http/openapi-examples.test.ts requests the same from an app over the demo.
 */
export type OpenApiExamples = ReadonlyMap<string, unknown>;

/**
 * The request each query example answers, by operationId (`{newest}`: the demo's newest review, its
 * id or its date). @internal exported for tests as well
 */
export const EXAMPLE_REQUESTS = {
  searchReviews: '/api/reviews/search?rating=5&limit=1',
  getReviewsSince: '/api/reviews/since/{newest}',
  getReview: '/api/reviews/{newest}',
} as const;

export async function demoExamples(demo: DatasetState, urls: ServiceUrls): Promise<OpenApiExamples> {
  const { snapshot } = await buildSnapshot(demo, urls, []);
  const newest = snapshot.view.reviews[0];
  if (!newest) throw new Error('the bundled demo has no published review to give the examples');
  // The newest review alone, under the whole demo's aggregate: an example as short as it can be.
  const firstOnly: PublishedView = { ...snapshot.view, reviews: [newest], sampleReviews: sampleReviewCount([newest]) };
  // The Atom writer loads only when needed, here as in the Atom renderer.
  const { renderAtomFeed } = await import('../feeds/atom.js');
  const since = sinceParts(snapshot, newest.date);
  const search = EXAMPLE_REQUESTS.searchReviews;
  return new Map<string, unknown>([
    ['getReviewsDataset', datasetDocument(firstOnly)],
    ['getInsights', INSIGHTS_EXAMPLE],
    ['getJsonFeed', JSON.parse(renderJsonFeed(firstOnly))],
    ['getAtomFeed', renderAtomFeed(firstOnly)],
    ['searchReviews', parse(searchRepresentation(snapshot, searchQueryOf(search.slice(search.indexOf('?') + 1))).body)],
    ['getReviewsSince', parse(Buffer.concat([since.head, since.reviews, since.tail]))],
    ['getReview', JSON.parse(reviewAnswerJson(findReview(snapshot, newest.id)!))],
  ]);
}

function parse(body: Buffer): unknown {
  return JSON.parse(body.toString('utf8'));
}

/**
 * The examples of one app, computed from `read()` (the demo, as server.ts reads it) with the first
 * request for the description; none when there is nothing to read them from, or when reading fails (a
 * deployment without the demo dataset): the description is served without them, `onError` told once.
 */
export function createExampleSource(
  read: (() => Promise<DatasetState>) | undefined,
  urls: ServiceUrls,
  onError: (error: unknown) => void = () => undefined,
): { load(): Promise<OpenApiExamples>; get(operationId: string): unknown } {
  let examples: OpenApiExamples = new Map();
  let loading: Promise<OpenApiExamples> | undefined;
  return {
    load() {
      if (!read) return Promise.resolve(examples);
      loading ??= read()
        .then((demo) => demoExamples(demo, urls))
        .then(
          (built) => (examples = built),
          (error: unknown) => {
            // Examples are documentation: their absence never fails the description, nor is it retried.
            onError(error);
            return examples;
          },
        );
      return loading;
    },
    get: (operationId) => examples.get(operationId),
  };
}
