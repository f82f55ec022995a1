import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ServiceUrls } from '../../domain/urls.js';
import { completeSnapshot, type SnapshotSource } from '../../snapshot/snapshot.js';
import { problemFor, ProblemSchema, sendProblem } from '../problem.js';
import { sendRepresentation } from '../representation.js';
import { rejectOtherMethods } from './methods.js';
import { REPRESENTATION_HEADERS, type ResponseHeader } from '../../domain/openapi-spec.js';
import { notModifiedResponse } from './openapi-responses.js';

export interface DocumentRoute {
  url: string;
  operationId: string;
  /** The renderer's name in the snapshot. */
  document: string;
  summary: string;
  description: string;
  /** Zod schema of the body, for the OpenAPI description. */
  schema: z.ZodType;
  /** An example body, for the OpenAPI description. */
  example: unknown;
  /** Media types the route may answer with; the first is the default. */
  mediaTypes: string[];
  /** The WebSub topic URL when this document is one (contract §4: Link rel=hub and rel=self). */
  topic?: (urls: ServiceUrls) => string;
  /** Picks the media type for a request, when there is a choice. */
  negotiate?: (request: FastifyRequest) => string;
  tags: string[];
}

/** A whole document served from the snapshot's precomputed bytes. */
export function registerDocumentRoute(
  app: FastifyInstance,
  deps: { snapshots: SnapshotSource; urls: ServiceUrls },
  route: DocumentRoute,
): void {
  const topicHeaders: ResponseHeader[] = route.topic ? ['Link'] : [];
  const linkHeader = route.topic ? `<${deps.urls.hub}>; rel="hub", <${route.topic(deps.urls)}>; rel="self"` : undefined;
  app.get(route.url, {
    schema: {
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: route.tags,
      response: {
        200: {
          description: `${route.summary}.`,
          // One key per media type: parameters such as charset are not part of the key.
          content: Object.fromEntries(route.mediaTypes.map((m) => [baseMediaType(m), { schema: route.schema, example: route.example }])),
          headers: [...REPRESENTATION_HEADERS, ...topicHeaders],
        },
        304: notModifiedResponse(topicHeaders),
        503: {
          description:
            'The document is still being computed for the latest data (insights after a change); retry after Retry-After seconds.',
          content: { 'application/json': { schema: ProblemSchema } },
          headers: ['Retry-After', 'Cache-Control'],
        },
      },
    },
    handler: async (request, reply) => {
      // Every published snapshot holds its documents; only a cold start may wait for its first insights.
      const doc =
        deps.snapshots.current().documents.get(route.document) ?? (await completeSnapshot(deps.snapshots)).documents.get(route.document);
      if (!doc) {
        // The first rendering failed and there is no earlier one to serve (the failure is logged).
        reply.header('Retry-After', '2');
        return sendProblem(reply, problemFor('unavailable', `${route.url} is not rendered yet; retry shortly.`));
      }
      if (linkHeader) reply.header('Link', linkHeader);
      const contentType = route.negotiate ? route.negotiate(request) : doc.contentType;
      if (route.negotiate) reply.header('Vary', 'Accept, Accept-Encoding');
      return sendRepresentation(request, reply, contentType === doc.contentType ? doc : { ...doc, contentType });
    },
  });
  rejectOtherMethods(app, route.url);
}

function baseMediaType(type: string): string {
  return type.split(';')[0]!.trim();
}
