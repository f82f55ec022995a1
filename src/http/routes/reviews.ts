import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { parse as parseQueryString } from 'fast-querystring';
import { z } from 'zod';
import { DateSchema, isCalendarDate } from '../../domain/dates.js';
import { AppError } from '../../domain/errors.js';
import { ReviewResultSchema, SearchResultSchema, SinceResultSchema } from '../../domain/results.js';
import { parseSearchQuery, SearchFieldsSchema } from '../../domain/search-params.js';
import { withDecodedCursor, type SearchQuery } from '../../domain/search-query.js';
import { JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import { codedEtag, compress, type ContentCoding } from '../../snapshot/rendered-document.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { memoBucket, memoValue } from '../../snapshot/snapshot-memo.js';
import {
  answerRepresentation,
  answerValidators,
  findReview,
  reviewAnswerJson,
  sinceParts,
  sinceTag,
  searchAnswer,
  searchBody,
  searchRepresentation,
  sinceDateIssue,
} from '../../snapshot/queries.js';
import { isNotModified } from '../conditional.js';
import { answerHandler, type RouteAnswer, type ServeKit } from '../fast-path.js';
import { negotiateCoding } from '../negotiation.js';
import type { HeaderList, PreparedResponse } from '../prepared-response.js';
import {
  answerHeaders,
  notModifiedResponse,
  okHeaders,
  PER_REQUEST_COMPRESS_MAX,
  prepareAnswer,
  prepareRepresentation,
  sourceOf,
  type AnswerSource,
  type PreparedRepresentation,
  type ResponseFrame,
} from '../representation.js';
import { createReusableBuffers, type ReusableBuffers } from '../reusable-buffers.js';
import { rejectOtherMethods } from './methods.js';
import { badRequestResponse, jsonResponse, notFoundResponse, notModifiedResponse as notModifiedDoc } from './openapi-responses.js';

/** Query answers: JSON, negotiated on Accept-Encoding only. */
const QUERY_FRAME: ResponseFrame = { vary: 'Accept-Encoding' };

/**
 * Search answers kept per snapshot by their exact query string, from their second request on
 * (SEARCH_CACHE_BYTES): the same snapshot and query string always give the same bytes, and clients
 * repeat searches (a page's filters, polling). A repeat is a lookup and a write.
 */
export const SEARCH_ANSWERS = memoBucket<PreparedRepresentation>('search', 'prepared search answers');
/** Since answers kept per snapshot by date (SINCE_CACHE_BYTES): polling clients ask for the same date. */
export const SINCE_ANSWERS = memoBucket<PreparedRepresentation>('since', 'prepared since answers');
/** The headers every query answer of a snapshot starts with (CORS, Vary, Cache-Control, Last-Modified). */
const QUERY_HEADERS = memoValue<HeaderList>('query answer headers', { readsDocuments: false });

interface Deps extends ServeKit {
  snapshots: { current(): Snapshot };
}

export function registerReviewRoutes(app: FastifyInstance, deps: Deps): void {
  const search = searchAnswers(deps.snapshots, createReusableBuffers());
  app.get('/api/reviews/search', {
    schema: {
      operationId: 'searchReviews',
      summary: 'Search reviews',
      description:
        'Filters combine with AND; every parameter is optional and an empty value counts as absent. The HTTP twin of the MCP tool `search_reviews`.',
      tags: ['reviews'],
      querystring: SearchFieldsSchema,
      response: {
        200: jsonResponse('A page of matching reviews.', SearchResultSchema),
        304: notModifiedDoc(),
        400: badRequestResponse(searchError('rating=9')),
      },
    },
    handler: answerHandler(deps.send, search, () => Promise.reject(new Error('a search always has an answer'))),
  });
  rejectOtherMethods(app, '/api/reviews/search');
  deps.answers.set('/api/reviews/search', search);

  app.get('/api/reviews/since/:date', {
    schema: {
      operationId: 'getReviewsSince',
      summary: 'Reviews on or after a date',
      description: 'Every published review dated on or after `date`, newest first. Supports conditional GET.',
      tags: ['reviews'],
      params: z.object({ date: DateSchema.describe('A calendar date, YYYY-MM-DD.') }),
      response: {
        200: jsonResponse('The reviews dated on or after the date.', SinceResultSchema),
        304: notModifiedDoc(),
        400: badRequestResponse(sinceDateError('2025-02-30')),
      },
    },
    handler: async (request, reply) => {
      const { date } = request.params as { date: string };
      if (!isCalendarDate(date)) throw sinceDateError(date);
      const snapshot = deps.snapshots.current();
      const answers = snapshot.memo.bucket(SINCE_ANSWERS);
      let prepared = answers.peek(date);
      if (!prepared) {
        const fresh = prepareAnswer(sinceSource(snapshot, date), QUERY_FRAME, () => answers.put(date, fresh));
        // Kept from a date's second request: polling clients repeat theirs, one-off dates are not kept.
        if (answers.askedBefore(date)) answers.put(date, fresh);
        prepared = fresh;
      }
      return deps.send(request, reply, await prepared.answer(request.raw));
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
        200: jsonResponse('The review.', ReviewResultSchema),
        304: notModifiedDoc(),
        404: notFoundResponse(reviewNotFound()),
      },
    },
    handler: async (request, reply) => {
      const { id } = request.params as { id: string };
      const snapshot = deps.snapshots.current();
      const review = findReview(snapshot, id);
      if (!review) throw reviewNotFound();
      const prepared = prepareAnswer(sourceOf(answerRepresentation(snapshot, reviewAnswerJson(review)), true), QUERY_FRAME);
      return deps.send(request, reply, await prepared.answer(request.raw));
    },
  });
  rejectOtherMethods(app, '/api/reviews/:id');
}

/**
 * A since answer as it is sent: its head and tail, and between them a view of the snapshot's bytes of
 * its reviews (every date before the first review shares all of them, uncopied), with a tag hashed from
 * its parts (sinceTag). It holds only its head and tail of its own, and is compressed only when small
 * enough to compress per request.
 */
function sinceSource(snapshot: Snapshot, date: string): AnswerSource {
  const parts = sinceParts(snapshot, date);
  const etag = sinceTag(snapshot, parts);
  const body = [parts.head, parts.reviews, parts.tail];
  return {
    body,
    length: parts.length,
    contentType: JSON_MEDIA_TYPE,
    etag,
    lastModified: snapshot.publishedAt,
    ...(snapshot.publishedWeak ? { weakDate: true } : {}),
    ownBytes: parts.head.length + parts.tail.length,
    ...(parts.length <= PER_REQUEST_COMPRESS_MAX
      ? {
          encoded: async (coding: ContentCoding) => ({
            body: await compress(Buffer.concat(body, parts.length), coding),
            etag: codedEtag(etag, coding),
          }),
        }
      : {}),
  };
}

/** The search query of a request's query string (the parser Fastify's router uses); throws the 400 problem. */
export function searchQueryOf(queryString: string): SearchQuery {
  const parsed = withDecodedCursor(parseSearchQuery(queryString === '' ? {} : (parseQueryString(queryString) as Record<string, unknown>)));
  if (!parsed.ok) throw new AppError('invalid_parameters', describeIssues(parsed.issues), parsed.issues);
  return parsed.value;
}

/**
 * `GET /api/reviews/search`: the answer to a request, whichever path runs it. Kept answers are looked
 * up by the exact query string before anything is parsed. A search asked for the first time in this
 * snapshot is answered without keeping it (answerOnce), and kept from its second request on.
 */
function searchAnswers(snapshots: Deps['snapshots'], buffers: ReusableBuffers): RouteAnswer {
  return (request) => {
    const url = request.url!;
    const q = url.indexOf('?');
    const queryString = q === -1 ? '' : url.slice(q + 1);
    const snapshot = snapshots.current();
    const kept = snapshot.memo.bucket(SEARCH_ANSWERS);
    const hit = kept.peek(queryString);
    if (hit) return hit.answer(request);
    const query = searchQueryOf(queryString);
    if (!kept.askedBefore(queryString)) return answerOnce(request, snapshot, query, buffers);
    const prepared = prepareRepresentation(searchRepresentation(snapshot, query), QUERY_FRAME, () => kept.put(queryString, prepared));
    kept.put(queryString, prepared);
    return prepared.answer(request);
  };
}

/**
 * A search asked for the first time in this snapshot: answered without keeping it. Uncompressed, its
 * bytes are assembled in a reused buffer handed back once written (reusable-buffers.ts), and a
 * revalidation is answered without assembling them at all; compressed, it is made and dropped.
 */
function answerOnce(
  request: IncomingMessage,
  snapshot: Snapshot,
  query: SearchQuery,
  buffers: ReusableBuffers,
): PreparedResponse | Promise<PreparedResponse> {
  // Compressed or not, and so its tag, depends on the size of the body: the whole answer decides.
  if (negotiateCoding(request.headers['accept-encoding']) !== null)
    return prepareAnswer(sourceOf(searchRepresentation(snapshot, query), true), QUERY_FRAME).answer(request);
  const start = snapshot.memo.value(QUERY_HEADERS, () => answerHeaders(snapshot.publishedAt, QUERY_FRAME));
  const { positions, envelope, etag } = searchAnswer(snapshot, query);
  if (isNotModified(request.headers, answerValidators(snapshot, etag))) return notModifiedResponse(start, etag);
  const body = searchBody(snapshot, positions, envelope, buffers.take);
  return { status: 200, headers: okHeaders(start, JSON_MEDIA_TYPE, etag, body.length), body, release: () => buffers.give(body) };
}

/**
 * The errors the handlers answer with: thrown by them, and given to the description as its examples
 * (openapi-responses.ts), so an error example is what the server answers.
 */
function searchError(queryString: string): AppError {
  try {
    searchQueryOf(queryString);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`the search ${queryString} is valid`);
}

function sinceDateError(date: string): AppError {
  const issues = [sinceDateIssue(date)];
  return new AppError('invalid_parameters', describeIssues(issues), issues);
}

function reviewNotFound(): AppError {
  return new AppError('not_found', 'There is no published review with that id.');
}

function describeIssues(issues: { message: string }[]): string {
  return issues.map((i) => i.message).join('; ');
}
