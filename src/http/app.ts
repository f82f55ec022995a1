import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServiceUrls } from '../domain/urls.js';
import type { SnapshotSource } from '../snapshot/snapshot.js';
import { createOpenApiTransforms } from './openapi-document.js';
import { clientErrorHandler, registerErrorHandlers, sendFrameworkError } from './problem.js';
import { registerDatasetRoutes } from './routes/datasets.js';
import { rejectOtherMethods } from './routes/methods.js';
import { registerOpenApiRoute } from './routes/openapi.js';
import { registerReviewRoutes } from './routes/reviews.js';
import { registerSiteRoutes } from './routes/site.js';

export interface AppDeps {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
  logger?: FastifyServerOptions['loggerInstance'] | FastifyServerOptions['logger'];
  /** Fastify's trustProxy (config TRUST_PROXY): request.ip from X-Forwarded-For behind a load balancer. */
  trustProxy?: boolean | string;
  /** Further transports (MCP, the WebSub hub) register their routes here, before the app is ready. */
  plugins?: AppPlugin[];
}

/** What the app lends the transports it hosts, so they share its HTTP behaviour without importing it. */
export interface AppKit {
  /** 405 with `Allow` for every other method on `url` (RFC 9110 §15.5.6), as a problem. */
  rejectOtherMethods(app: FastifyInstance, url: string, allow: string): void;
}

export type AppPlugin = (app: FastifyInstance, kit: AppKit) => void | Promise<void>;

// Headers a browser script may read (contract §4).
const EXPOSED_HEADERS = ['ETag', 'Last-Modified', 'Link', 'Mcp-Session-Id'];

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
  const app = Fastify({
    ...(loggerOptions as FastifyServerOptions),
    trustProxy: deps.trustProxy ?? false,
    // A request line or body this large is an attack or a mistake, never a query.
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    frameworkErrors: sendFrameworkError,
    return503OnClosing: true,
    clientErrorHandler,
    forceCloseConnections: 'idle',
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
    ...createOpenApiTransforms(),
  });

  registerDatasetRoutes(app, deps);
  registerReviewRoutes(app, deps);
  registerSiteRoutes(app, deps);
  for (const plugin of deps.plugins ?? []) await plugin(app, { rejectOtherMethods });
  registerOpenApiRoute(app);
  await app.ready();
  return app;
}
