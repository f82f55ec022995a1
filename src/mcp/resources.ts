import type { McpServer, ReadResourceResult } from '@modelcontextprotocol/server';
import { BARE_JSON_MEDIA_TYPE } from '../domain/media-types.js';
import type { ServiceUrls } from '../domain/urls.js';

/** One of the four documents as an MCP resource: its renderer's name in the snapshot is `document`. */
export interface DocumentResource {
  uri: string;
  document: string;
  title: string;
  description: string;
  mimeType: string;
}

/** The four documents as MCP resources, by their absolute URLs (contract §5, MCP 2025-11-25 §Resources). */
export function documentResources(urls: ServiceUrls): DocumentResource[] {
  return [
    {
      uri: urls.reviewsJson,
      document: 'reviews.json',
      mimeType: BARE_JSON_MEDIA_TYPE,
      title: 'Reviews dataset',
      description: 'Business metadata, aggregate rating and every published review, newest first.',
    },
    {
      uri: urls.insightsJson,
      document: 'insights.json',
      mimeType: BARE_JSON_MEDIA_TYPE,
      title: 'Review insights',
      description: 'Aspect sentiment, entities, topics, FAQ and summary computed from the published reviews.',
    },
    {
      uri: urls.feedJson,
      document: 'feed.json',
      mimeType: 'application/feed+json',
      title: 'JSON Feed of the newest reviews',
      description: 'JSON Feed 1.1 of the 50 newest reviews.',
    },
    {
      uri: urls.feedXml,
      document: 'feed.xml',
      mimeType: 'application/atom+xml',
      title: 'Atom feed of the newest reviews',
      description: 'Atom 1.0 feed of the 50 newest reviews.',
    },
  ];
}

/** Registers the documents, each read by `read` (the bytes the HTTP endpoint serves). */
export function registerResources(
  server: McpServer,
  resources: readonly DocumentResource[],
  read: (resource: DocumentResource) => Promise<ReadResourceResult>,
): void {
  for (const resource of resources) {
    const { uri, document, title, description, mimeType } = resource;
    server.registerResource(document, uri, { title, description, mimeType }, () => read(resource));
  }
}
