import type { CallbackResponse } from './callback-client.js';
import { hubSignature } from './signature.js';

export interface TopicContent {
  body: Buffer;
  contentType: string;
  hash: string;
  /** Data version of the snapshot the bytes come from. */
  version: number;
}

/**
 * Headers of a content distribution request (WebSub §7): the topic's own Content-Type, Link rel=hub and
 * rel=self, and with a hub.secret the signature of the exact body (§7.1); never a signature without one.
 */
export function notificationHeaders(
  hubUrl: string,
  topicUrl: string,
  content: TopicContent,
  secret: string | null,
): Record<string, string> {
  return {
    'content-type': content.contentType,
    link: `<${hubUrl}>; rel="hub", <${topicUrl}>; rel="self"`,
    ...(secret ? { 'x-hub-signature': hubSignature(secret, content.body) } : {}),
  };
}

export type DeliveryOutcome = 'delivered' | 'gone' | 'failed';

/**
 * WebSub §7: a 2xx is success; 410 Gone ends the subscription (contract §6: at once); every other status
 * (redirects included: subscribers MUST NOT use them), a connection error or a timeout is a failure.
 */
export function classifyDelivery(response: CallbackResponse): DeliveryOutcome {
  if (!response.ok) return 'failed';
  if (response.status >= 200 && response.status < 300) return 'delivered';
  return response.status === 410 ? 'gone' : 'failed';
}

/** Milliseconds before the next attempt after `failures` consecutive failures (WEBSUB_RETRY_DELAYS). */
export function retryDelayMs(failures: number, delaysSeconds: readonly number[]): number {
  const i = Math.min(Math.max(failures, 1), delaysSeconds.length) - 1;
  return Math.round((delaysSeconds[i] ?? 60) * 1000);
}
