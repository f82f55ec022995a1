import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Intent } from '../domain/websub-ports.js';
import type { ResponseSpec } from '../domain/openapi-spec.js';
import { parseHubRequest, type HubRequest, type HubRequestSchema } from './hub-request.js';
import type { RateLimiter } from '../domain/rate-limit.js';

export const HUB_PATH = '/api/websub/hub';
/** A subscription request is a few hundred bytes; 16 KiB leaves room for long callback URLs. */
const BODY_LIMIT = 16 * 1024;
const UNSUPPORTED = Symbol('unsupported media type');

export interface HubRouteDeps {
  schema: HubRequestSchema;
  limiter: RateLimiter;
  /** Stores the request durably; resolves to the stored intent. */
  accept(request: HubRequest): Promise<Intent>;
  /** Called once the 202 has been sent (never before: contract §6). */
  accepted(intent: Intent): void;
}

function plain(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').header('Cache-Control', 'no-store').send(`${text}\n`);
}

const text = (description: string, example: string, headers: ResponseSpec['headers'] = ['Cache-Control']): ResponseSpec => ({
  description,
  content: { 'text/plain': { schema: z.string(), example } },
  headers,
});

/** The OpenAPI description of the hub, from the same schema the handler validates with. */
function hubOpenApiSchema(body: HubRequestSchema) {
  return {
    operationId: 'websubHub',
    summary: 'WebSub hub: subscribe or unsubscribe',
    description:
      'W3C WebSub hub (§5.1). Topics: /feed.xml, /api/feed.json, /reviews.json. The callback must be an https: URL; it is verified asynchronously with a GET carrying hub.challenge, which it must echo with a 2xx.',
    tags: ['websub'],
    consumes: ['application/x-www-form-urlencoded'],
    body,
    bodyExample: {
      'hub.mode': 'subscribe',
      'hub.topic': 'https://reviews.example.com/feed.xml',
      'hub.callback': 'https://subscriber.example/callback',
      'hub.secret': 'a-shared-secret',
      'hub.lease_seconds': '86400',
    },
    response: {
      202: text(
        'Accepted: verification of intent follows, after this response.',
        'Accepted: the subscribe request will be verified with a GET to the callback.\n',
      ),
      400: text(
        'Invalid request (missing field, bad mode, non-https callback, unknown topic, secret of 200 bytes or more, bad lease); nothing stored.',
        'hub.callback must be an https: URL\n',
      ),
      415: text(
        'The body must be application/x-www-form-urlencoded.',
        'Hub requests must be sent as application/x-www-form-urlencoded (WebSub §5.1).\n',
      ),
      429: text(
        'Too many subscription requests from this address; see Retry-After.',
        'Too many subscription requests from 203.0.113.7; retry after 30 s.\n',
        ['Retry-After', 'Cache-Control'],
      ),
    },
  };
}

/** What the hosting app lends the hub route (http/app.ts AppKit): its 405 answer. */
export interface HubRouteKit {
  rejectOtherMethods(app: FastifyInstance, url: string, allow: string): void;
}

/**
 * POST /api/websub/hub (WebSub §5.1, contract §6): 202 and verification afterwards, or 400 with the
 * reasons in plain text (§5.1.3: hubs SHOULD describe the error as plain text) and nothing stored.
 */
export function hubRoutePlugin(deps: HubRouteDeps) {
  const pending = new WeakMap<FastifyRequest, Intent>();
  return async (app: FastifyInstance, kit: HubRouteKit): Promise<void> => {
    await app.register(async (scope) => {
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
        done(null, new URLSearchParams(body as string));
      });
      // Anything else is answered by the handler (415, plain text like the other hub errors).
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, _body, done) => done(null, UNSUPPORTED));

      scope.post(HUB_PATH, {
        schema: hubOpenApiSchema(deps.schema),
        bodyLimit: BODY_LIMIT,
        onRequest: (request, reply, done) => {
          const decision = deps.limiter.take(request.ip);
          if (decision.ok) return done();
          reply.header('Retry-After', String(decision.retryAfterSeconds));
          plain(reply, 429, `Too many subscription requests from ${request.ip}; retry after ${decision.retryAfterSeconds} s.`);
        },
        onResponse: (request, _reply, done) => {
          const intent = pending.get(request);
          if (intent) deps.accepted(intent);
          done();
        },
        handler: async (request, reply) => {
          if (!(request.body instanceof URLSearchParams)) {
            return plain(reply, 415, 'Hub requests must be sent as application/x-www-form-urlencoded (WebSub §5.1).');
          }
          const parsed = parseHubRequest(deps.schema, request.body);
          if (!parsed.ok) return plain(reply, 400, parsed.reason);
          let intent: Intent;
          try {
            intent = await deps.accept(parsed.request);
          } catch (err) {
            // The store could not record it (disk full, database down): a temporary condition, not a
            // bug in the request, so 503 with Retry-After rather than 500.
            request.log.warn({ err }, 'websub: could not store a hub request');
            reply.header('Retry-After', '30');
            return plain(reply, 503, 'The hub cannot store subscription requests right now; retry later.');
          }
          pending.set(request, intent);
          return plain(reply, 202, `Accepted: the ${parsed.request.mode} request will be verified with a GET to the callback.`);
        },
      });
      kit.rejectOtherMethods(scope, HUB_PATH, 'POST, OPTIONS');
    });
  };
}
