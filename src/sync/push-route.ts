import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../domain/errors.js';
import type { SyncSource } from '../domain/sync-ports.js';

export const GOOGLE_PUSH_PATH = '/api/sync/google';
/** A Pub/Sub push message of a review notification is under a kilobyte; Pub/Sub allows 10 MB messages. */
const BODY_LIMIT = 64 * 1024;

/**
 * A Cloud Pub/Sub push request (https://cloud.google.com/pubsub/docs/push): the message's `data` is the
 * base64 of the publisher's payload, here a Business Profile notification (`{ type, reviewName,
 * locationName }`, types NEW_REVIEW and UPDATED_REVIEW for reviews). A run does not depend on them.
 */
export const PubSubPushSchema = z.looseObject({
  message: z.looseObject({
    data: z.string().describe('Base64 of the notification, a JSON object such as {"type":"NEW_REVIEW","reviewName":…,"locationName":…}.'),
    messageId: z.string().optional(),
    publishTime: z.string().optional(),
  }),
  subscription: z.string().optional(),
});

const Base64Schema = z.base64();

/** The notification inside a push message: a JSON object, or the reason it is not one. */
export function notificationOf(body: unknown): { ok: true; type: string | null } | { ok: false; reason: string } {
  const push = PubSubPushSchema.safeParse(body);
  if (!push.success) return { ok: false, reason: 'the body is not a Pub/Sub push message: message.data (a base64 string) is required' };
  const data = push.data.message.data;
  if (!Base64Schema.safeParse(data).success) return { ok: false, reason: 'message.data is not base64' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
  } catch {
    return { ok: false, reason: 'message.data is not the base64 of a JSON object' };
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    return { ok: false, reason: 'message.data is not the base64 of a JSON object' };
  const type = (payload as { type?: unknown }).type;
  return { ok: true, type: typeof type === 'string' ? type.slice(0, 64) : null };
}

/** Compares secrets in constant time: the digests have one length whatever was sent. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export interface PushRouteDeps {
  /** `GOOGLE_PUSH_TOKEN`: the push subscription's endpoint carries it as `?token=` (contract §3.2). */
  token: string;
  push(source: SyncSource): void;
}

/** What the hosting app lends the route (http/app.ts AppKit): its 405 answer. */
export interface PushRouteKit {
  rejectOtherMethods(app: FastifyInstance, url: string, allow: string): void;
}

/**
 * POST /api/sync/google?token=… (contract §3.2): the Pub/Sub push endpoint of Business Profile
 * notifications. The token is checked before the body is read: a wrong or missing one is a 403 that
 * starts nothing. A well-formed message answers 204 (Pub/Sub acknowledges any 2xx, and a repeated
 * message only starts another run, which changes nothing) and starts a run at once.
 */
export function pushRoutePlugin(deps: PushRouteDeps) {
  return async (app: FastifyInstance, kit: PushRouteKit): Promise<void> => {
    await app.register(async (scope) => {
      scope.post(GOOGLE_PUSH_PATH, {
        bodyLimit: BODY_LIMIT,
        schema: {
          operationId: 'googlePush',
          summary: 'Google Business Profile notifications (Cloud Pub/Sub push)',
          description:
            'The push subscription of the Business Profile notification topic posts here with ?token=GOOGLE_PUSH_TOKEN; each well-formed message starts a sync with Google. Only present when GOOGLE_PUSH_TOKEN is set.',
          tags: ['sync'],
          hide: true,
        },
        onRequest: async (request) => {
          const token = (request.query as Record<string, unknown>).token;
          if (typeof token !== 'string' || !sameSecret(token, deps.token))
            throw new AppError('forbidden', 'The token query parameter does not match the configured push token.');
        },
        handler: async (request, reply) => {
          const notification = notificationOf(request.body);
          if (!notification.ok) throw new AppError('invalid_request', notification.reason);
          deps.push('google');
          return reply.code(204).header('Cache-Control', 'no-store').send();
        },
      });
      kit.rejectOtherMethods(scope, GOOGLE_PUSH_PATH, 'POST, OPTIONS');
    });
  };
}
