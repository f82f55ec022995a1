import type { Kysely } from 'kysely';

/**
 * Rendered documents kept across restarts: the slow insights document, with the hash of the
 * inputs it was computed from, so a fresh process serves it at once and recomputes only when they differ.
 * A cache: deleting every row is always safe (the next rendering writes it again).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('documents')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('input_hash', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('last_modified', 'text', (c) => c.notNull())
    .addColumn('weak_date', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rendered_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('documents').execute();
}
