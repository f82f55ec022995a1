import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DateSchema, isCalendarDate } from '../../domain/dates.js';
import { AppError } from '../../domain/errors.js';
import { ReviewResultSchema, SearchResultSchema, SinceResultSchema } from '../../domain/results.js';
import { parseSearchQuery, SearchFieldsSchema } from '../../domain/search-params.js';
import { withDecodedCursor } from '../../domain/search-query.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { answerRepresentation, findReview, reviewsSince, searchRepresentation, sinceDateIssue } from '../../snapshot/queries.js';
import { sendRepresentation } from '../representation.js';
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

function describeIssues(issues: { message: string }[]): string {
  return issues.map((i) => i.message).join('; ');
}
