import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DatasetDocumentSchema } from '../../domain/dataset.js';
import { JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import type { ServiceUrls } from '../../domain/urls.js';
import { ATOM_MEDIA_TYPE } from '../../feeds/atom-media-type.js';
import { JsonFeedSchema } from '../../feeds/json-feed-schema.js';
import { JSON_FEED_MEDIA_TYPE } from '../../feeds/json-feed.js';
// Not the insights barrel: it loads the NLP engine, which only the insights worker runs.
import { InsightsDocumentSchema } from '../../insights/schema.js';
import type { SnapshotSource } from '../../snapshot/snapshot.js';
import type { ServeKit } from '../fast-path.js';
import { negotiateFeedType } from '../negotiation.js';
import { registerDocumentRoute } from './documents.js';

/** The four whole documents, each served from the snapshot's precomputed bytes (contract §4). */
export function registerDatasetRoutes(app: FastifyInstance, deps: { snapshots: SnapshotSource; urls: ServiceUrls } & ServeKit): void {
  registerDocumentRoute(app, deps, {
    url: '/reviews.json',
    operationId: 'getReviewsDataset',
    document: 'reviews.json',
    summary: 'The reviews dataset',
    description: 'Business metadata, the aggregate rating and every published review, newest first. A WebSub topic.',
    schema: DatasetDocumentSchema,
    mediaTypes: [JSON_MEDIA_TYPE],
    topic: (u) => u.reviewsJson,
    tags: ['datasets'],
  });
  registerDocumentRoute(app, deps, {
    url: '/insights.json',
    operationId: 'getInsights',
    document: 'insights.json',
    summary: 'The insights dataset',
    description: 'Aspect-based sentiment, entities, topics, FAQ and summary, computed from the published reviews.',
    schema: InsightsDocumentSchema,
    mediaTypes: [JSON_MEDIA_TYPE],
    tags: ['datasets'],
  });
  registerDocumentRoute(app, deps, {
    url: '/api/feed.json',
    operationId: 'getJsonFeed',
    document: 'feed.json',
    summary: 'JSON Feed 1.1 of the 50 newest reviews',
    description: 'A WebSub topic. Served as application/feed+json, or application/json when Accept admits only that.',
    schema: JsonFeedSchema,
    mediaTypes: [JSON_FEED_MEDIA_TYPE, JSON_MEDIA_TYPE],
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
    schema: z.string(),
    mediaTypes: [ATOM_MEDIA_TYPE],
    topic: (u) => u.feedXml,
    tags: ['feeds'],
  });
}
