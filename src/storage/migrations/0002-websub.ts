import type { Kysely } from 'kysely';

/**
 * The WebSub hub's durable state (contract §6): subscriptions, pending verifications (intents), the last
 * published hash of each topic, and the delivery outbox. One delivery row per subscription, so pending
 * deliveries to one subscriber coalesce by construction. Claims (`claimed_by`, `claim_expires_at`) let
 * several replicas share the work: each row is worked on by one worker at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('websub_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('callback', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('lease_seconds', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('websub_subscriptions_topic_callback', ['topic', 'callback'])
    .execute();
  await db.schema.createIndex('websub_subscriptions_by_topic').on('websub_subscriptions').columns(['topic', 'expires_at']).execute();

  await db.schema
    .createTable('websub_intents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('requested_topic', 'text', (c) => c.notNull())
    .addColumn('callback', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('lease_seconds', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claim_expires_at', 'text')
    .execute();
  await db.schema.createIndex('websub_intents_due').on('websub_intents').column('due_at').execute();

  await db.schema
    .createTable('websub_topics')
    .addColumn('topic', 'text', (c) => c.primaryKey())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('source_version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('websub_deliveries')
    .addColumn('subscription_id', 'text', (c) => c.primaryKey().references('websub_subscriptions.id').onDelete('cascade'))
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claim_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('websub_deliveries_due').on('websub_deliveries').column('due_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('websub_deliveries').execute();
  await db.schema.dropTable('websub_topics').execute();
  await db.schema.dropTable('websub_intents').execute();
  await db.schema.dropTable('websub_subscriptions').execute();
}
