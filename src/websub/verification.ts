import { randomBytes } from 'node:crypto';
import type { Intent } from '../domain/websub-ports.js';
import type { CallbackResponse } from './callback-client.js';

/** A fresh, single-use challenge: 256 random bits (contract §6 asks for 128+), URL-safe. */
export function newChallenge(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The callback URL with hub parameters appended. WebSub §5.1.2: the callback's own query string is kept
 * as it was, byte for byte, and the new parameters are joined to its end with `&`.
 */
export function withHubParams(callback: string, params: Record<string, string>): string {
  const base = callback.replace(/#.*$/, '');
  const extra = new URLSearchParams(params).toString();
  if (!base.includes('?')) return `${base}?${extra}`;
  return base.endsWith('?') || base.endsWith('&') ? `${base}${extra}` : `${base}&${extra}`;
}

/** The verification of intent GET's URL (WebSub §5.3). hub.lease_seconds is sent for subscriptions. */
export function verificationUrl(intent: Intent, challenge: string): string {
  return withHubParams(intent.callback, {
    'hub.mode': intent.mode,
    'hub.topic': intent.requestedTopic,
    'hub.challenge': challenge,
    ...(intent.mode === 'subscribe' ? { 'hub.lease_seconds': String(intent.leaseSeconds) } : {}),
  });
}

/**
 * WebSub §5.3.1: only a 2xx whose body is exactly the challenge confirms; 3xx (no redirects are
 * followed), 4xx, 5xx, a wrong body or no answer at all mean the verification failed.
 */
export function isConfirmed(response: CallbackResponse, challenge: string): boolean {
  return response.ok && response.status >= 200 && response.status < 300 && response.body === challenge;
}

/** The denial a removed subscriber is told about (WebSub §5.2), best effort. */
export function denialUrl(callback: string, topic: string, reason: string): string {
  return withHubParams(callback, { 'hub.mode': 'denied', 'hub.topic': topic, 'hub.reason': reason });
}
