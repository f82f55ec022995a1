import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Answers a request on the raw socket, before Fastify builds its request and reply, and returns the
 * status sent; or returns 0 to leave the request to Fastify. Only for answers whose every header is known
 * up front: a revalidated whole document's 304 (issue 15: within 0.8x of a raw node:http server).
 */
export type FastAnswer = (request: IncomingMessage, response: ServerResponse, common: Readonly<Record<string, string>>) => number;

export interface FastPaths {
  /** By path, without the query string (the router ignores it too). */
  routes: Map<string, FastAnswer>;
  /** Headers every Fastify answer carries (CORS), set by the app factory; answers send them first. */
  common: Record<string, string>;
}

const registries = new WeakMap<Server, FastPaths>();

/** The fast paths of an app (one per server, shared by every plugin scope). */
export function fastPathsOf(app: FastifyInstance): FastPaths {
  let paths = registries.get(app.server);
  if (!paths) {
    paths = { routes: new Map(), common: {} };
    registries.set(app.server, paths);
  }
  return paths;
}

export interface FastPathOptions {
  /** Called after a fast answer, as Fastify's onResponse hook would be for the route `url`. */
  answered(request: IncomingMessage, url: string, status: number, startedAt: number): void;
}

/**
 * Puts the fast paths in front of Fastify's request listener. Whatever a fast answer cannot decide alone
 * goes to Fastify unchanged: a request without Host (problem answer), one arriving while the app closes
 * (503), and any path or condition the answer declines. What a fast answer skips is Fastify's own
 * per-request work: request, reply and child logger objects, routing, the hook chain (issue 15 profile).
 * A global onRequest hook added later would not see these requests: such a hook must say so here.
 */
export function serveFastPaths(app: FastifyInstance, options: FastPathOptions): void {
  const server = app.server;
  const paths = fastPathsOf(app);
  const fastify = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  const handler = fastify[0];
  if (fastify.length !== 1 || !handler) return;
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  server.removeListener('request', handler);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '';
    const q = url.indexOf('?');
    const answer = paths.routes.get(q === -1 ? url : url.slice(0, q));
    if (answer !== undefined && !closing && request.headers.host !== undefined) {
      const startedAt = performance.now();
      let status = 0;
      try {
        status = answer(request, response, paths.common);
      } catch {
        // Fastify answers it instead, with its error handling (a snapshot source that failed, say).
        if (response.headersSent) return void response.destroy();
      }
      if (status !== 0) {
        options.answered(request, q === -1 ? url : url.slice(0, q), status, startedAt);
        return;
      }
    }
    handler(request, response);
  });
}
