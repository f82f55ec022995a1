import type { Kysely } from 'kysely';

/**
 * Each review's public JSON (start-up time): `public_doc` is the review as served, its mentions
 * resolved against the catalog whose key (`catalogKey`, src/domain/catalog-key.ts) is `public_key`, so a
 * start reads and indexes instead of resolving and serializing again. A cache: null, or a key that is not
 * the current catalog's, means "compute it"; clearing both columns is always safe.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('reviews').addColumn('public_doc', 'text').execute();
  await db.schema.alterTable('reviews').addColumn('public_key', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('reviews').dropColumn('public_key').execute();
  await db.schema.alterTable('reviews').dropColumn('public_doc').execute();
}
