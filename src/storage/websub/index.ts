import type { Kysely } from 'kysely';
import type { WebSubStore } from '../../domain/websub-ports.js';
import type { DialectName } from '../connect.js';
import type { Database } from '../schema.js';
import { createDeliveryStore } from './deliveries.js';
import { createIntentStore } from './intents.js';
import { createSubscriptionStore } from './subscriptions.js';
import { createTopicStore } from './topics.js';

/**
 * The hub's port over Kysely, one implementation for SQLite and PostgreSQL, in four parts: intents,
 * topics, deliveries and subscriptions. Workers claim intents and deliveries with one query (claim.ts).
 * Every transaction starts with a write, so a SQLite writer takes its lock up front instead of failing
 * on a read-to-write upgrade.
 */
export function createWebSubStore(db: Kysely<Database>, dialect: DialectName): WebSubStore {
  const pg = dialect === 'postgres';
  return {
    ...createIntentStore(db, pg),
    ...createTopicStore(db),
    ...createDeliveryStore(db, pg),
    ...createSubscriptionStore(db),
  };
}
