import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { parse as parseQueryString } from 'fast-querystring';
import { z } from 'zod';
import { DateSchema, isCalendarDate } from '../../domain/dates.js';
import { AppError } from '../../domain/errors.js';
import { ReviewResultSchema, SearchResultSchema, SinceResultSchema } from '../../domain/results.js';
import { parseSearchQuery, SearchFieldsSchema } from '../../domain/search-params.js';
import { withDecodedCursor, type SearchQuery } from '../../domain/search-query.js';
import { JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { createAnswerCache } from '../../snapshot/answer-cache.js';
import {
  answerRepresentation,
  answerValidators,
  findReview,
  reviewsSince,
  searchAnswer,
  searchBody,
  searchCacheBudget,
  searchRepresentation,
  sinceDateIssue,
} from '../../snapshot/queries.js';
import type { Representation } from '../../snapshot/rendered-document.js';
import { isNotModified } from '../conditional.js';
import { fastPathsOf, type FastAnswer } from '../fast-path.js';
import { negotiateCoding } from '../negotiation.js';
import { cachingHeaders, headerList, sendRepresentation, type HeaderList } from '../representation.js';
import { createReusableBuffers, type ReusableBuffers } from '../reusable-buffers.js';
import { rejectOtherMethods } from './methods.js';
import { reviewResultExample, searchResultExample, sinceResultExample } from '../openapi-examples.js';
import { badRequestResponse, jsonResponse, notFoundResponse, notModifiedResponse } from './openapi-responses.js';

interface Deps {
  snapshots: { current(): Snapshot };
}

export function registerReviewRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/api/reviews/search', {
    schema: {
      operationId: 'searchReviews',
      summary: 'Search reviews',
      description:
        'Filters combine with AND; every parameter is optional and an empty value counts as absent. The HTTP twin of the MCP tool `search_reviews`.',
      tags: ['reviews'],
      querystring: SearchFieldsSchema,
      response: {
        200: jsonResponse('A page of matching reviews.', SearchResultSchema, searchResultExample),
        304: notModifiedResponse(),
        400: badRequestResponse,
      },
    },
    handler: (request, reply) => {
      const parsed = withDecodedCursor(parseSearchQuery(request.query as Record<string, unknown>));
      if (!parsed.ok) throw new AppError('invalid_parameters', describeIssues(parsed.issues), parsed.issues);
      const snapshot = deps.snapshots.current();
      return sendRepresentation(request, reply, searchRepresentation(snapshot, parsed.value));
    },
  });
  rejectOtherMethods(app, '/api/reviews/search');
  fastPathsOf(app).routes.set('/api/reviews/search', searchFastPath(deps.snapshots));

  app.get('/api/reviews/since/:date', {
    schema: {
      operationId: 'getReviewsSince',
      summary: 'Reviews on or after a date',
      description: 'Every published review dated on or after `date`, newest first. Supports conditional GET.',
      tags: ['reviews'],
      params: z.object({ date: DateSchema.describe('A calendar date, YYYY-MM-DD.') }),
      response: {
        200: jsonResponse('The reviews dated on or after the date.', SinceResultSchema, sinceResultExample),
        304: notModifiedResponse(),
        400: badRequestResponse,
      },
    },
    handler: (request, reply) => {
      const { date } = request.params as { date: string };
      if (!isCalendarDate(date)) {
        const issues = [sinceDateIssue(date)];
        throw new AppError('invalid_parameters', describeIssues(issues), issues);
      }
      const rep = reviewsSince(deps.snapshots.current(), date);
      return sendRepresentation(request, reply, rep);
    },
  });
  rejectOtherMethods(app, '/api/reviews/since/:date');

  app.get('/api/reviews/:id', {
    schema: {
      operationId: 'getReview',
      summary: 'One review',
      description: "A published review by id: each review's permalink in the feeds, and the REST twin of the MCP tool `get_review`.",
      tags: ['reviews'],
      params: z.object({ id: z.string().describe('The review id.') }),
      response: {
        200: jsonResponse('The review.', ReviewResultSchema, reviewResultExample),
        304: notModifiedResponse(),
        404: notFoundResponse,
      },
    },
    handler: (request, reply) => {
      const { id } = request.params as { id: string };
      const snapshot = deps.snapshots.current();
      const review = findReview(snapshot, id);
      if (!review) throw new AppError('not_found', 'There is no published review with that id.');
      const json = `{"review":${review.json}}`;
      return sendRepresentation(request, reply, answerRepresentation(snapshot, json));
    },
  });
  rejectOtherMethods(app, '/api/reviews/:id');
}

/**
 * A valid search asked for without compression, answered before Fastify (issue 15: search near the
 * cost of sending its bytes) with the status, headers and body of the handler above. What it declines
 * goes the full way: invalid parameters (the problem answer), a compressed answer (encoded
 * asynchronously), a method other than GET or HEAD. The query string is parsed by the parser Fastify's
 * router uses, so a repeated or bracketed parameter reads the same on both paths. From its second request
 * in a snapshot, an answer is kept by its exact query string with its headers (within SEARCH_CACHE_BYTES,
 * beside the search cache, which holds the same answers), so a repeated request is a lookup and a write.
 */
function searchFastPath(snapshots: Deps['snapshots']): FastAnswer {
  const prepared = createAnswerCache<Prepared>(searchCacheBudget);
  const buffers = createReusableBuffers();
  // The headers every answer of a snapshot starts with (CORS, Vary, Cache-Control, Last-Modified).
  let shared: { snapshot: Snapshot; headers: HeaderList } | null = null;
  const sharedHeaders = (snapshot: Snapshot, common: Readonly<Record<string, string>>) => {
    if (shared?.snapshot !== snapshot)
      shared = { snapshot, headers: headerList(cachingHeaders(answerValidators(snapshot, ''), common, 'Accept-Encoding')) };
    return shared.headers;
  };
  return (request, response, common) => {
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD') return 0;
    const acceptEncoding = request.headers['accept-encoding'];
    if (acceptEncoding !== undefined && negotiateCoding(acceptEncoding) !== null) return 0;
    const url = request.url!;
    const q = url.indexOf('?');
    const queryString = q === -1 ? '' : url.slice(q + 1);
    const snapshot = snapshots.current();
    let answer = prepared.peek(snapshot, queryString);
    if (!answer) {
      const parsed = withDecodedCursor(
        parseSearchQuery(queryString === '' ? {} : (parseQueryString(queryString) as Record<string, unknown>)),
      );
      if (!parsed.ok) return 0;
      if (!prepared.askedBefore(snapshot, queryString))
        return sendOnce(request, response, snapshot, parsed.value, sharedHeaders(snapshot, common), buffers);
      answer = prepare(searchRepresentation(snapshot, parsed.value), sharedHeaders(snapshot, common));
      prepared.put(snapshot, queryString, answer);
    }
    if (isNotModified(request.headers, answer.rep)) {
      response.writeHead(304, method === 'HEAD' ? answer.notModifiedHead : answer.notModified).end();
      return 304;
    }
    response.writeHead(200, answer.ok);
    if (method === 'HEAD') response.end();
    else response.end(answer.body);
    return 200;
  };
}

/**
 * A search asked for the first time in this snapshot: answered without keeping it (the next request
 * for it is kept), its bytes assembled in a reused buffer handed back once written (reusable-buffers.ts),
 * and a revalidation answered without assembling them at all.
 */
function sendOnce(
  request: IncomingMessage,
  response: ServerResponse,
  snapshot: Snapshot,
  query: SearchQuery,
  shared: HeaderList,
  buffers: ReusableBuffers,
): number {
  const { positions, envelope, etag } = searchAnswer(snapshot, query);
  if (isNotModified(request.headers, answerValidators(snapshot, etag))) {
    response.writeHead(304, notModifiedHeaders(shared, etag, request.method === 'HEAD')).end();
    return 304;
  }
  const body = searchBody(snapshot, positions, envelope, buffers.take);
  response.writeHead(200, okHeaders(shared, etag, body.length));
  if (request.method === 'HEAD') {
    buffers.give(body);
    response.end();
  } else {
    // 'finish': the last write, this body's, has been handed to the socket; nothing reads it any more.
    response.end(body, () => buffers.give(body));
  }
  return 200;
}

/** A search answer with the headers of its 200 and 304, in the order sendRepresentation writes them. */
interface Prepared {
  body: Buffer;
  rep: Representation;
  ok: HeaderList;
  notModified: HeaderList;
  notModifiedHead: HeaderList;
}

/** `shared` (sharedHeaders in searchFastPath): a search answer of that snapshot, its representation's dates. */
function prepare(rep: Representation, shared: HeaderList): Prepared {
  return {
    body: rep.body,
    rep,
    ok: okHeaders(shared, rep.etag, rep.body.length),
    notModified: notModifiedHeaders(shared, rep.etag, false),
    notModifiedHead: notModifiedHeaders(shared, rep.etag, true),
  };
}

/** A search's 200 headers, in the order sendRepresentation writes them (a list: see HeaderList). */
function okHeaders(shared: HeaderList, etag: string, length: number): HeaderList {
  return [...shared, 'content-type', JSON_MEDIA_TYPE, 'etag', etag, 'content-length', String(length)];
}

/** A search's 304 headers; Fastify ends a HEAD answer with the length of its (empty) payload. */
function notModifiedHeaders(shared: HeaderList, etag: string, head: boolean): HeaderList {
  return head ? [...shared, 'etag', etag, 'content-length', '0'] : [...shared, 'etag', etag];
}

function describeIssues(issues: { message: string }[]): string {
  return issues.map((i) => i.message).join('; ');
}
