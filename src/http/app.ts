import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { DatasetState } from '../domain/ports.js';
import { loggedUrl, type ServiceUrls } from '../domain/urls.js';
import type { SnapshotSource } from '../snapshot/snapshot.js';
import { createClientAddress } from './client-address.js';
import { capConnectionsPerAddress } from './connection-cap.js';
import { EXPOSED_HEADERS } from './cors.js';
import { sendPreparedWith, serveRequests, type AnswerRoutes } from './fast-path.js';
import { createPreparedWriter } from './prepared-response.js';
import { createOpenApiTransforms } from './openapi-document.js';
import { createExampleSource } from './openapi-examples.js';
import { clientErrorHandler, registerErrorHandlers, sendFrameworkError } from './problem.js';
import { registerProtocolEdges } from './protocol-edges.js';
import { registerDatasetRoutes } from './routes/datasets.js';
import { registerExtraMethods, rejectOtherMethods } from './routes/methods.js';
import { registerOpenApiRoute } from './routes/openapi.js';
import { registerOpsRoutes, type OpsDeps } from './routes/ops.js';
import { registerReviewRoutes } from './routes/reviews.js';
import { registerSiteRoutes } from './routes/site.js';

export interface AppDeps {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
  logger?: FastifyServerOptions['loggerInstance'] | FastifyServerOptions['logger'];
  /** Fastify's trustProxy (config TRUST_PROXY): request.ip from X-Forwarded-For behind a load balancer. */
  trustProxy?: boolean | string;
  /** Request limits (README "Limits"); each has a safe default. */
  limits?: Partial<HttpLimits>;
  /** /healthz, /readyz and /metrics (contract §8); without it /readyz answers from the snapshot alone. */
  ops?: Partial<OpsDeps>;
  /** Further transports (MCP, the WebSub hub) register their routes here, before the app is ready. */
  plugins?: AppPlugin[];
  /**
   * false: every request goes through Fastify's routing, none is answered before it (fast-path.ts).
   * For tests and benchmarks that compare the two; both write the same prepared responses.
   */
  fastPath?: boolean;
  /** Called with every request the connection gate lets through, before it is answered (the server's hidden-class anchors). */
  seeRequest?: (request: IncomingMessage, response: ServerResponse) => void;
  /**
   * The data the OpenAPI description's examples answer over: the bundled demo (server.ts readDemoState),
   * read with the first request for the description. Absent: its 200 responses have no examples.
   */
  exampleData?: () => Promise<DatasetState>;
}

/** What the app lends the transports it hosts, so they share its HTTP behaviour without importing it. */
export interface AppKit {
  /** 405 with `Allow` for every other method on `url` (RFC 9110 §15.5.6), as a problem. */
  rejectOtherMethods(app: FastifyInstance, url: string, allow: string): void;
}

export type AppPlugin = (app: FastifyInstance, kit: AppKit) => void | Promise<void>;

export interface HttpLimits {
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnectionsPerAddress: number;
  /** How long a write may wait for the client to read before the connection is closed. */
  writeTimeoutMs: number;
}

export const DEFAULT_LIMITS: HttpLimits = {
  bodyLimitBytes: 1024 * 1024,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnectionsPerAddress: 128,
  writeTimeoutMs: 30_000,
};

/** Pipelined requests a connection may have waiting for their turn before it is no longer read. */
const MAX_WAITING_PER_CONNECTION = 32;

/** Fastify's default request ids (`req-1`, `req-2`, ...), one sequence shared with the fast paths' log lines. */
function createRequestIds(): () => string {
  let next = 0;
  return () => {
    next = (next + 1) & 2147483647;
    return `req-${next.toString(36)}`;
  };
}

/** Whether the logger writes `info` lines (pino says; a logger that cannot say is assumed to). */
function logsInfo(log: FastifyBaseLogger): boolean {
  const withLevels = log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  return typeof withLevels.isLevelEnabled === 'function' ? withLevels.isLevelEnabled('info') : true;
}

/**
 * The app factory (style.md, after Fastify's build(opts)): everything but `listen`, so tests drive
 * it with `inject()` and the CLI serves it. Schemas are zod, for the OpenAPI description only:
 * handlers validate themselves, to give the contract's issue lists and empty-value rules.
 */
export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const loggerOptions =
    deps.logger && typeof deps.logger === 'object' && 'child' in deps.logger
      ? { loggerInstance: deps.logger }
      : { logger: deps.logger ?? false };
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const genReqId = createRequestIds();
  const app = Fastify({
    genReqId,
    ...(loggerOptions as FastifyServerOptions),
    // One line per request, written when it completes (contract §8), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: deps.trustProxy ?? false,
    // A request line or body this large is an attack or a mistake, never a query.
    bodyLimit: limits.bodyLimitBytes,
    // Slow clients: a body trickled one byte every few seconds is cut off (408) once the whole request
    // has taken requestTimeout; headers must arrive within headersTimeout, checked every second.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
      // Answered by registerProtocolEdges in the problem shape, with CORS.
      requireHostHeader: false,
    },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    frameworkErrors: sendFrameworkError,
    return503OnClosing: true,
    clientErrorHandler,
    forceCloseConnections: 'idle',
  });
  capConnectionsPerAddress(app.server, limits.maxConnectionsPerAddress);
  registerExtraMethods(app);
  registerProtocolEdges(app);
  // One line per request at info (contract §8), the same whichever path answered: the client's address
  // as request.ip gives it (behind trusted proxies, from X-Forwarded-For), from one function.
  const clientAddress = createClientAddress(deps.trustProxy);
  const logsRequests = logsInfo(app.log);
  const answered = (request: IncomingMessage, route: string, status: number, ms: number, reqId: () => string) => {
    deps.ops?.metrics?.observeRequest(route, request.method!, status, ms / 1000);
    if (logsRequests)
      app.log.info(
        {
          reqId: reqId(),
          method: request.method,
          url: loggedUrl(request.url ?? ''),
          status,
          ms: Math.round(ms * 10) / 10,
          ip: clientAddress(request),
        },
        'request',
      );
  };
  app.addHook('onResponse', async (request, reply) => {
    answered(request.raw, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime, () => String(request.id));
  });
  // The routes whose answers are taken before Fastify (fast-path.ts), filled as they register, and the
  // one writer of prepared responses, which both paths use.
  const answers: AnswerRoutes = new Map();
  const write = createPreparedWriter({ writeTimeoutMs: limits.writeTimeoutMs });
  const kit = { answers, send: sendPreparedWith(write) };
  serveRequests(app, {
    ...(deps.fastPath !== false ? { routes: answers } : {}),
    write,
    maxWaiting: MAX_WAITING_PER_CONNECTION,
    ...(deps.seeRequest ? { seen: deps.seeRequest } : {}),
    answered: (request, route, status, startedAt) => answered(request, route, status, performance.now() - startedAt, genReqId),
  });
  // Validation happens in handlers (see above); serialization is ours too: bodies are precomputed.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  registerErrorHandlers(app);
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'],
    exposedHeaders: EXPOSED_HEADERS,
    // Any OPTIONS gets its 204, also without the preflight headers (a plain capability probe).
    strictPreflight: false,
    maxAge: 86400,
  });
  const examples = createExampleSource(deps.exampleData, deps.urls, (err) =>
    app.log.warn({ err }, 'the OpenAPI examples could not be computed from the demo dataset: the description is served without them'),
  );
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Review Data Service',
        version: '1.0.0',
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Verified customer reviews of one local business, with aspect-based insights, as REST, JSON Feed, Atom, WebSub and MCP. Public and read-only: no key, no account; an Authorization header is ignored.',
      },
      servers: [{ url: deps.urls.base }],
      // Public and read-only (spec §5): no security scheme applies, said explicitly (OpenAPI 3.1 §4.8.10).
      security: [],
      tags: [
        { name: 'datasets', description: 'Whole documents, precomputed per data change.' },
        { name: 'reviews', description: 'Search and lookup.' },
        { name: 'feeds', description: 'JSON Feed 1.1 and Atom 1.0 of the 50 newest reviews; WebSub topics.' },
        { name: 'websub', description: 'The WebSub hub: push notifications of the three topics.' },
        { name: 'mcp', description: 'Model Context Protocol over streamable HTTP, for AI assistants.' },
      ],
    },
    ...createOpenApiTransforms(examples.get),
  });

  registerOpsRoutes(app, {
    readiness: async () => {
      const snapshot = deps.snapshots.current();
      return { reviews: snapshot.view.reviews.length, snapshot: snapshot.documents.get('reviews.json')?.etag ?? String(snapshot.version) };
    },
    ...deps.ops,
  });
  registerDatasetRoutes(app, { ...deps, ...kit });
  registerReviewRoutes(app, { ...deps, ...kit });
  registerSiteRoutes(app, { ...deps, send: kit.send });
  for (const plugin of deps.plugins ?? []) await plugin(app, { rejectOtherMethods });
  registerOpenApiRoute(app, kit.send, examples);
  await app.ready();
  return app;
}
