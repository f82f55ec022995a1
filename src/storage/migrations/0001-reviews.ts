import { sql, type Kysely } from 'kysely';

// Kysely migrations receive an untyped database: the schema is what they create.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('business')
    .addColumn('singleton', 'integer', (c) => c.primaryKey())
    .addColumn('doc', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('doc', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('data_version')
    .addColumn('singleton', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into data_version (singleton, version, changed_at) values (1, 0, ${new Date(0).toISOString()})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('data_version').execute();
  await db.schema.dropTable('reviews').execute();
  await db.schema.dropTable('business').execute();
}
