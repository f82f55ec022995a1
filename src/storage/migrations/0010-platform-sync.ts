import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Live sync with the review platforms (contract §3.2).
 *
 * - `reviews.platform`: the record's `source.platform`, so a complete platform listing can delete the
 *   platform's reviews it no longer lists, and count them for the deletion guard, without parsing every
 *   stored record. Filled here for existing rows, then written with every row.
 * - `sync_state`: one row per platform: who is running a sync (a claim with an expiry, so a holder that
 *   dies is replaced), when the last run started, and how the last runs ended (for operators and the
 *   `review_data_sync_last_success_timestamp_seconds` metric).
 * - `sync_credentials`: the OAuth refresh token `review-data connect google` obtained, readable by every
 *   replica. A secret: never logged, exported or served (docs/deployment.md, "Secrets").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('reviews').addColumn('platform', 'text').execute();
  const platform =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql`(doc::json #>> '{source,platform}')`
      : sql`json_extract(doc, '$.source.platform')`;
  await sql`update reviews set platform = ${platform}`.execute(db);
  await db.schema.createIndex('reviews_platform').on('reviews').column('platform').execute();
  await db.schema
    .createTable('sync_state')
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('claim_expires_at', 'text')
    .addColumn('last_started_at', 'text')
    .addColumn('last_finished_at', 'text')
    .addColumn('last_success_at', 'text')
    .addColumn('last_outcome', 'text')
    .addColumn('last_message', 'text')
    .execute();
  await db.schema
    .createTable('sync_credentials')
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('refresh_token', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sync_credentials').execute();
  await db.schema.dropTable('sync_state').execute();
  await db.schema.dropIndex('reviews_platform').execute();
  await db.schema.alterTable('reviews').dropColumn('platform').execute();
}
