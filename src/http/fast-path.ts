import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { gateConnections } from './connection-gate.js';
import type { PreparedResponse, PreparedWriter } from './prepared-response.js';

/**
 * A route's answer to a GET or HEAD, the same whichever path runs it: its prepared response (at once,
 * or once a compressed body is made), or undefined when the route's own handler must decide (a document
 * not rendered yet at a cold start). Throws the route's AppError for an invalid request.
 */
export type RouteAnswer = (request: IncomingMessage) => PreparedResponse | Promise<PreparedResponse> | undefined;

/** The routes whose answers may be taken before Fastify, by path without the query string. */
export type AnswerRoutes = Map<string, RouteAnswer>;

/** Writes a prepared response as the answer to a request Fastify routed (its onResponse hooks still run). */
export type SendPrepared = (request: FastifyRequest, reply: FastifyReply, prepared: PreparedResponse) => FastifyReply;

/** SendPrepared with the app's writer (prepared-response.ts): the writer the answers taken before Fastify use too. */
export function sendPreparedWith(write: PreparedWriter): SendPrepared {
  return (request, reply, prepared) => {
    reply.hijack();
    write(reply.raw, prepared, request.method === 'HEAD');
    return reply;
  };
}

/**
 * The Fastify handler of a route with a RouteAnswer: the same prepared response, written by the same
 * writer on Fastify's raw response. `otherwise` answers when `answer` leaves it.
 */
export function answerHandler(
  send: SendPrepared,
  answer: RouteAnswer,
  otherwise: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    const prepared = answer(request.raw);
    if (prepared === undefined) return otherwise(request, reply);
    return send(request, reply, await prepared);
  };
}

/** What the routes that prepare their answers share with the app: the fast routes and the writer. */
export interface ServeKit {
  answers: AnswerRoutes;
  send: SendPrepared;
}

export interface ServeOptions {
  /** The routes whose answers are taken before Fastify; absent, none is (every request goes through Fastify). */
  routes?: ReadonlyMap<string, RouteAnswer>;
  write: PreparedWriter;
  /** Called after a fast answer, as Fastify's onResponse hook would be for the route `url`. */
  answered(request: IncomingMessage, url: string, status: number, startedAt: number): void;
  /** Pipelined requests a connection may have waiting before it is no longer read (connection-gate.ts). */
  maxWaiting: number;
  /** Called with every request the connection gate lets through, before it is answered. */
  seen?: (request: IncomingMessage, response: ServerResponse) => void;
}

/**
 * Puts the connection gate (connection-gate.ts) in front of Fastify's request listener, and takes the
 * answers of `routes` before it: the route's own answer, written the way its Fastify handler writes it,
 * without the framework's per-request work (request, reply and child logger objects, routing, the hook
 * chain). Whatever the answer cannot decide alone goes to Fastify
 * unchanged: a request without Host (problem answer), one arriving while the app closes (503), another
 * method (405), an invalid request (the problem the route's handler throws), a document not rendered
 * yet. A global onRequest hook would not see the requests answered here: such a hook must say so here.
 */
export function serveRequests(app: FastifyInstance, options: ServeOptions): void {
  const server = app.server;
  const fastify = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  const handler = fastify[0];
  if (fastify.length !== 1 || !handler) throw new Error("serveRequests: Fastify's request listener is not the only one");
  const { routes, write } = options;
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  server.removeListener('request', handler);
  const listen = (listener: (request: IncomingMessage, response: ServerResponse) => void) => {
    const seen = options.seen;
    const all = seen
      ? (request: IncomingMessage, response: ServerResponse) => {
          seen(request, response);
          listener(request, response);
        }
      : listener;
    server.on('request', gateConnections(all, options.maxWaiting));
  };
  if (!routes) {
    listen(handler);
    return;
  }
  const dispatch = (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const answer = routes.get(path);
    const method = request.method;
    if (answer === undefined || closing || request.headers.host === undefined || (method !== 'GET' && method !== 'HEAD'))
      return handler(request, response);
    const startedAt = performance.now();
    const send = (prepared: PreparedResponse) => {
      write(response, prepared, method === 'HEAD');
      options.answered(request, path, prepared.status, startedAt);
    };
    let prepared: PreparedResponse | Promise<PreparedResponse> | undefined;
    try {
      prepared = answer(request);
    } catch {
      // Fastify answers it instead, with its error handling (an invalid request's problem, say).
      return handler(request, response);
    }
    if (prepared === undefined) return handler(request, response);
    if (!(prepared instanceof Promise)) return send(prepared);
    prepared.then(send, () => handler(request, response));
  };
  listen(dispatch);
}
