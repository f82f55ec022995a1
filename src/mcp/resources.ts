import { BARE_JSON_MEDIA_TYPE } from '../domain/media-types.js';
import type { ServiceUrls } from '../domain/urls.js';
import type { Snapshot } from '../snapshot/snapshot.js';

export interface DocumentResource {
  uri: string;
  /** The renderer's name in the snapshot. */
  document: string;
  name: string;
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
      name: 'reviews.json',
      mimeType: BARE_JSON_MEDIA_TYPE,
      title: 'Reviews dataset',
      description: 'Business metadata, aggregate rating and every published review, newest first.',
    },
    {
      uri: urls.insightsJson,
      document: 'insights.json',
      name: 'insights.json',
      mimeType: BARE_JSON_MEDIA_TYPE,
      title: 'Review insights',
      description: 'Aspect sentiment, entities, topics, FAQ and summary computed from the published reviews.',
    },
    {
      uri: urls.feedJson,
      document: 'feed.json',
      name: 'feed.json',
      mimeType: 'application/feed+json',
      title: 'JSON Feed of the newest reviews',
      description: 'JSON Feed 1.1 of the 50 newest reviews.',
    },
    {
      uri: urls.feedXml,
      document: 'feed.xml',
      name: 'feed.xml',
      mimeType: 'application/atom+xml',
      title: 'Atom feed of the newest reviews',
      description: 'Atom 1.0 feed of the 50 newest reviews.',
    },
  ];
}

/** A resource's current contents: the same bytes the HTTP endpoint serves. */
export function readDocument(snapshot: Snapshot, resource: DocumentResource) {
  const doc = snapshot.documents.get(resource.document);
  if (!doc) return undefined;
  const mimeType = doc.contentType.split(';')[0]!.trim();
  return { uri: resource.uri, mimeType, text: doc.body.toString('utf8') };
}
