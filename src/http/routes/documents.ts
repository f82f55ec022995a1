import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ServiceUrls } from '../../domain/urls.js';
import type { RenderedDocument } from '../../snapshot/rendered-document.js';
import { completeSnapshot, type SnapshotSource } from '../../snapshot/snapshot.js';
import { etagMatches } from '../conditional.js';
import { fastPathsOf, type FastAnswer } from '../fast-path.js';
import { problemFor, ProblemSchema, sendProblem } from '../problem.js';
import {
  codingFor,
  headerList,
  notModifiedHeaders,
  sendRepresentation,
  type NotModifiedHeaderLists,
  type NotModifiedHeaders,
} from '../representation.js';
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
  const vary = route.negotiate ? 'Accept, Accept-Encoding' : 'Accept-Encoding';
  fastPathsOf(app).routes.set(route.url, notModifiedFastPath(deps.snapshots, route.document, linkHeader, vary));
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
      if (route.negotiate) reply.header('Vary', vary);
      return sendRepresentation(request, reply, contentType === doc.contentType ? doc : { ...doc, contentType });
    },
  });
  rejectOtherMethods(app, route.url);
}

/**
 * The revalidation of a published document (issue 15), answered before Fastify with the headers the
 * handler above would send: the 304 depends only on the document, the coding and If-None-Match, so its
 * headers are built once per document. Anything else (no If-None-Match, no match, a document not rendered
 * yet, If-Modified-Since alone) goes the full way.
 */
function notModifiedFastPath(snapshots: SnapshotSource, document: string, linkHeader: string | undefined, vary: string): FastAnswer {
  let built: { doc: RenderedDocument; GET: NotModifiedHeaderLists; HEAD: NotModifiedHeaderLists } | undefined;
  return (request, response, common) => {
    const inm = request.headers['if-none-match'];
    const method = request.method;
    if (inm === undefined || (method !== 'GET' && method !== 'HEAD')) return 0;
    const doc = snapshots.current().documents.get(document);
    if (!doc || !etagMatches(inm, doc.etag)) return 0;
    if (built?.doc !== doc) {
      const get = notModifiedHeaders(doc, linkHeader ? { ...common, link: linkHeader } : common, vary);
      // Fastify ends a HEAD answer with the length of its (empty) payload: sent today, so kept.
      const lists = (h: NotModifiedHeaders, extra: string[]): NotModifiedHeaderLists => ({
        identity: [...headerList(h.identity), ...extra],
        gzip: [...headerList(h.gzip), ...extra],
        br: [...headerList(h.br), ...extra],
      });
      built = { doc, GET: lists(get, []), HEAD: lists(get, ['content-length', '0']) };
    }
    response.writeHead(304, built[method][codingFor(doc, request.headers['accept-encoding']) ?? 'identity']);
    response.end();
    return 304;
  };
}

function baseMediaType(type: string): string {
  return type.split(';')[0]!.trim();
}
