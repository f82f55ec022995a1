import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { problemFor, sendProblem } from './problem.js';

/**
 * Requests Node's HTTP server used to answer itself with an empty body and no CORS header: an HTTP/1.1
 * request without Host (RFC 9112 §3.2: 400) and an Expect other than 100-continue (RFC 9110 §10.1.1:
 * 417). Both get the service's problem shape. The Host check needs Node's own one off
 * (`requireHostHeader: false` in the server options).
 */
export function registerProtocolEdges(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify(
      problemFor('invalid_request', `Expect: ${String(request.headers.expect)} is not supported; only 100-continue is.`),
    );
    response.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'no-store',
      Connection: 'close',
    });
    response.end(body);
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      reply.header('Access-Control-Allow-Origin', '*').header('Connection', 'close');
      return sendProblem(reply, problemFor('invalid_request', 'An HTTP/1.1 request needs a Host header (RFC 9112 §3.2).'));
    }
  });
}
