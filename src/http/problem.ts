import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, ERROR_CODES, IssueSchema, problemType, type ErrorCode, type Issue } from '../domain/errors.js';
import { JSON_MEDIA_TYPE } from '../domain/media-types.js';

/** RFC 9457 problem details, the one error shape of every endpoint (contract §4). */
export const ProblemSchema = z
  .object({
    type: z.string().describe('A URI naming the kind of problem; stable for each `code`.'),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    code: z.string().describe('Stable machine-readable error code.'),
    issues: z.array(IssueSchema).optional().describe('Every invalid parameter, with its name in `path`.'),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof ProblemSchema>;

export function problemFor(code: ErrorCode, detail: string, issues?: Issue[]): Problem {
  const { status, title } = ERROR_CODES[code];
  return { type: problemType(code), title, status, detail, code, ...(issues ? { issues } : {}) };
}

/** The problem an AppError is answered with: the error handler's, and the description's examples of errors. */
export function problemOf(error: AppError): Problem {
  return problemFor(error.code, error.message, error.issues);
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  // Served as application/json, as the contract fixes, not application/problem+json.
  return reply.code(problem.status).type(JSON_MEDIA_TYPE).header('Cache-Control', 'no-store').send(JSON.stringify(problem));
}

/** Fastify's own 4xx errors (bad JSON, body too large, ...) keep their status; their codes map to ours. */
function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 406:
      return 'not_acceptable';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    default:
      return 'invalid_request';
  }
}

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) return sendProblem(reply, problemOf(error));
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) return sendProblem(reply, { ...problemFor(codeForStatus(status), error.message), status });
    // An unexpected error: logged in full, never shown to the client (style.md).
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, problemFor('internal', 'The server could not answer this request. It has been logged.'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      problemFor(
        'not_found',
        `No resource at ${request.method} ${request.url.split('?')[0] ?? ''}. The API is described at /.well-known/openapi.json.`,
      ),
    ),
  );
}

/**
 * Errors the router raises before any hook or error handler runs (a malformed percent-encoding, a
 * path parameter over maxParamLength): Fastify's `frameworkErrors` option. Same problem shape, plus
 * the CORS header the skipped hooks would have added (contract §4).
 */
export function sendFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('Access-Control-Allow-Origin', '*');
  // No review id or date is that long (ids are at most 200 characters): there is nothing at this URL.
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendProblem(reply, problemFor('not_found', 'No resource at this URL.'));
  return sendProblem(reply, problemFor('invalid_request', 'The URL is not valid: a percent-encoded sequence is malformed.'));
}

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (a header block over the size limit,
 * a malformed request line): answered in the same problem shape, with CORS, then the socket closes.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const detail =
    status === 431
      ? 'The request line or headers are too large; shorten the URL or the headers.'
      : 'The request could not be parsed as HTTP.';
  const body = JSON.stringify({ ...problemFor('invalid_request', detail), status, title: STATUS_CODES[status] ?? 'Bad Request' });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: ${JSON_MEDIA_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
  );
}
