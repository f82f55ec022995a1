import type { McpServer, ReadResourceResult } from '@modelcontextprotocol/server';
import type { ServiceUrls } from '../domain/urls.js';

const resource = (uri: string, document: string, mimeType: string, title: string, description: string) => ({
  uri,
  document,
  metadata: { mimeType, title, description },
});
export type DocumentResource = ReturnType<typeof resource>;

/** The four documents as MCP resources, by their absolute URLs (contract §5, MCP 2025-11-25 §Resources). */
export function documentResources(urls: ServiceUrls): DocumentResource[] {
  const json = 'application/json';
  return [
    resource(urls.reviewsJson, 'reviews.json', json, 'Reviews dataset', 'The business, its aggregate rating and every published review.'),
    resource(urls.insightsJson, 'insights.json', json, 'Review insights', 'Aspects, entities, topics, FAQ and summary of the reviews.'),
    resource(urls.feedJson, 'feed.json', 'application/feed+json', 'JSON Feed', 'JSON Feed 1.1 of the 50 newest reviews.'),
    resource(urls.feedXml, 'feed.xml', 'application/atom+xml', 'Atom feed', 'Atom 1.0 feed of the 50 newest reviews.'),
  ];
}

/** Registers the documents, each read by `read` (the bytes its HTTP endpoint serves). */
export function registerResources(
  server: McpServer,
  resources: DocumentResource[],
  read: (r: DocumentResource) => Promise<ReadResourceResult>,
) {
  for (const r of resources) server.registerResource(r.document, r.uri, r.metadata, () => read(r));
}
