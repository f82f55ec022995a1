import type { Selectable } from 'kysely';
import type { HubMode, Intent, Subscription } from '../../domain/websub-ports.js';
import type { WebSubIntentsTable, WebSubSubscriptionsTable } from '../schema.js';

// ISO text of the same width sorts like time, so claims and due dates compare as text on both databases.
export const iso = (ms: number) => new Date(ms).toISOString();
export const ms = (text: string) => Date.parse(text);

/** A released claim is due at once (the epoch sorts before any real time). */
export const DUE_AT_ONCE = new Date(0).toISOString();

/** A claim given back: free, due at `dueAt`. */
export const released = (dueAt: string) => ({ claimed_by: null, claim_expires_at: null, due_at: dueAt });

export function toSubscription(row: Selectable<WebSubSubscriptionsTable>): Subscription {
  return {
    id: row.id,
    topic: row.topic,
    callback: row.callback,
    secret: row.secret,
    leaseSeconds: Number(row.lease_seconds),
    expiresAt: ms(row.expires_at),
    failures: Number(row.failures),
    createdAt: ms(row.created_at),
    updatedAt: ms(row.updated_at),
  };
}

export function toIntent(row: Selectable<WebSubIntentsTable>): Intent {
  return {
    id: row.id,
    mode: row.mode as HubMode,
    topic: row.topic,
    requestedTopic: row.requested_topic,
    callback: row.callback,
    secret: row.secret,
    leaseSeconds: Number(row.lease_seconds),
    createdAt: ms(row.created_at),
  };
}
