import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { ServiceUrls } from '../../domain/urls.js';
import { memoValue, type MemoValueHandle } from '../../snapshot/snapshot-memo.js';
import { completeSnapshot, type SnapshotSource } from '../../snapshot/snapshot.js';
import { answerHandler, type RouteAnswer, type ServeKit } from '../fast-path.js';
import { problemFor, ProblemSchema, sendProblem } from '../problem.js';
import { prepareRepresentation, type PreparedRepresentation } from '../representation.js';
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
  /** Media types the route may answer with; the first is the default. */
  mediaTypes: string[];
  /** The WebSub topic URL when this document is one (contract §4: Link rel=hub and rel=self). */
  topic?: (urls: ServiceUrls) => string;
  /** Picks the media type for a request's Accept, when there is a choice. */
  negotiate?: (accept: string | undefined) => string;
  tags: string[];
}

/**
 * A whole document served from the snapshot's precomputed bytes. Its answers (200 or 304, each coding)
 * are prepared once per snapshot and media type, in the snapshot's memo, and taken before Fastify
 * (fast-path.ts): a revalidation is within 0.8x of a raw node:http server (docs/decisions.md).
 */
export function registerDocumentRoute(
  app: FastifyInstance,
  deps: { snapshots: SnapshotSource; urls: ServiceUrls } & ServeKit,
  route: DocumentRoute,
): void {
  const topicHeaders: ResponseHeader[] = route.topic ? ['Link'] : [];
  const leading = route.topic ? ['link', `<${deps.urls.hub}>; rel="hub", <${route.topic(deps.urls)}>; rel="self"`] : [];
  const vary = route.negotiate ? 'Accept, Accept-Encoding' : 'Accept-Encoding';
  // The prepared document per media type it is sent as: it reads the document, so a snapshot copy
  // with a newer one (insights landing) prepares its own.
  const prepared = new Map<string, MemoValueHandle<PreparedRepresentation>>(
    route.mediaTypes.map((m) => [m, memoValue<PreparedRepresentation>(`${route.url} as ${m}`, { readsDocuments: true })]),
  );
  const answer: RouteAnswer = (request) => {
    const snapshot = deps.snapshots.current();
    const doc = snapshot.documents.get(route.document);
    if (!doc) return undefined;
    const contentType = route.negotiate ? route.negotiate(request.headers.accept) : doc.contentType;
    const handle = prepared.get(contentType) ?? prepared.get(route.mediaTypes[0]!)!;
    return snapshot.memo.value(handle, () => prepareRepresentation(doc, { leading, vary, contentType })).answer(request);
  };
  deps.answers.set(route.url, answer);
  app.get(route.url, {
    schema: {
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: route.tags,
      response: {
        200: {
          description: `${route.summary}.`,
          // One key per media type: parameters such as charset are not part of the key. The example of
          // each, the document over the bundled demo, is added with the description (openapi-examples.ts).
          content: Object.fromEntries(route.mediaTypes.map((m) => [baseMediaType(m), { schema: route.schema }])),
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
    // Every published snapshot holds its documents; only a cold start may wait for its first insights.
    handler: answerHandler(deps.send, answer, async (request, reply) => {
      await completeSnapshot(deps.snapshots);
      const later = answer(request.raw);
      if (later) return deps.send(request, reply, await later);
      // The first rendering failed and there is no earlier one to serve (the failure is logged).
      reply.header('Retry-After', '2');
      return sendProblem(reply, problemFor('unavailable', `${route.url} is not rendered yet; retry shortly.`));
    }),
  });
  rejectOtherMethods(app, route.url);
}

function baseMediaType(type: string): string {
  return type.split(';')[0]!.trim();
}
