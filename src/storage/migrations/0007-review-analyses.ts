import type { Kysely } from 'kysely';

/**
 * Per-review insights analyses kept across restarts: keyed by a hash of the review's text and
 * the engine's fingerprint (code, models, taxonomies), so a restarted insights worker reads back what is
 * still valid. A cache: deleting every row is always safe (the next computation writes them again).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('review_analyses')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('review_analyses_engine').on('review_analyses').column('engine').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('review_analyses').execute();
}
