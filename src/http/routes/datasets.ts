import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DatasetDocumentSchema } from '../../domain/dataset.js';
import type { ServiceUrls } from '../../domain/urls.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { atomFeedExample, insightsExample, jsonFeedExample, reviewsDatasetExample } from '../openapi-examples.js';
import { registerDocumentRoute } from './documents.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Schemas of documents whose renderers live in other modules register here (insights, feeds). */
export interface DocumentSchemas {
  insights: z.ZodType;
  jsonFeed: z.ZodType;
  atom: z.ZodType;
}

const placeholder = z.record(z.string(), z.unknown());

/**
 * The JSON Feed is application/feed+json, or application/json for a client whose Accept admits
 * application/json but not application/feed+json (contract §4).
 */
export function negotiateFeedType(request: FastifyRequest): string {
  const accept = (request.headers.accept ?? '').toLowerCase();
  const admits = (type: string) =>
    accept.split(',').some((part) => {
      const [range, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      if (q && Number(q.slice(2)) === 0) return false;
      return range === type;
    });
  if (!admits('application/feed+json') && admits('application/json')) return JSON_TYPE;
  return 'application/feed+json';
}

export function registerDatasetRoutes(
  app: FastifyInstance,
  deps: { snapshots: { current(): Snapshot }; urls: ServiceUrls; schemas?: Partial<DocumentSchemas> },
): void {
  registerDocumentRoute(app, deps, {
    url: '/reviews.json',
    operationId: 'getReviewsDataset',
    document: 'reviews.json',
    summary: 'The reviews dataset',
    description: 'Business metadata, the aggregate rating and every published review, newest first. A WebSub topic.',
    schema: DatasetDocumentSchema,
    example: reviewsDatasetExample,
    mediaTypes: [JSON_TYPE],
    topic: (u) => u.reviewsJson,
    tags: ['datasets'],
  });
  registerDocumentRoute(app, deps, {
    url: '/insights.json',
    operationId: 'getInsights',
    document: 'insights.json',
    summary: 'The insights dataset',
    description: 'Aspect-based sentiment, entities, topics, FAQ and summary, computed from the published reviews.',
    schema: deps.schemas?.insights ?? placeholder,
    example: insightsExample,
    mediaTypes: [JSON_TYPE],
    tags: ['datasets'],
  });
  registerDocumentRoute(app, deps, {
    url: '/api/feed.json',
    operationId: 'getJsonFeed',
    document: 'feed.json',
    summary: 'JSON Feed 1.1 of the 50 newest reviews',
    description: 'A WebSub topic. Served as application/feed+json, or application/json when Accept admits only that.',
    schema: deps.schemas?.jsonFeed ?? placeholder,
    example: jsonFeedExample,
    mediaTypes: ['application/feed+json', JSON_TYPE],
    topic: (u) => u.feedJson,
    negotiate: negotiateFeedType,
    tags: ['feeds'],
  });
  registerDocumentRoute(app, deps, {
    url: '/feed.xml',
    operationId: 'getAtomFeed',
    document: 'feed.xml',
    summary: 'Atom 1.0 feed of the 50 newest reviews',
    description: 'A WebSub topic.',
    schema: deps.schemas?.atom ?? z.string(),
    example: atomFeedExample,
    mediaTypes: ['application/atom+xml; charset=utf-8'],
    topic: (u) => u.feedXml,
    tags: ['feeds'],
  });
}
