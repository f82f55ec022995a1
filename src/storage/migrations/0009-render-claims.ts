import type { Kysely } from 'kysely';

/**
 * Who renders a slow document for given inputs: replicas on one database claim the
 * rendering of `insights.json` for an input hash, and those that lose take the winner's document from
 * `documents` instead of computing it too. A claim lasts until `expires_at` unless its holder renews it,
 * so a holder that dies mid-render is replaced. Short-lived coordination: deleting every row is safe.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('render_claims')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('input_hash', 'text', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('render_claims_pk', ['name', 'input_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('render_claims').execute();
}
