import { createHmac } from 'node:crypto';

/**
 * `X-Hub-Signature` of a content distribution request (WebSub §7.1): `method=signature`, the HMAC of the
 * exact body bytes keyed with the subscriber's hub.secret, in lower-case hex; sha256 as §7.1 recommends.
 */
export function hubSignature(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
