import type { Kysely } from 'kysely';

/**
 * Marks the bundled demo business (contract §3.1): the first import of a business's own data removes
 * the demo, and only a business row marked as the demo is ever removed that way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('business')
    .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('business').dropColumn('demo').execute();
}
