import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** The channel every write's NOTIFY goes to; the payload is the new change counter. */
export const DATA_CHANGED_CHANNEL = 'rds_data_changed';

/**
 * Installs a trigger that NOTIFYs on every change of the data_version counter. Every write transaction
 * bumps that counter (review-store.ts `bumpVersion`), so any writer (a replica, the CLI, a future
 * module) signals listeners without knowing about them, and PostgreSQL delivers the notification only
 * when the transaction commits, so a listener never sees a change before it is visible.
 *
 * Kept out of the shared migration list on purpose: that list is common to SQLite and PostgreSQL and
 * its order is checked by the migrator. This step is idempotent and runs after the migrations; the
 * advisory lock keeps replicas that start together from racing on CREATE FUNCTION.
 */
export async function installChangeNotify(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('rds_change_notify'))`.execute(trx);
    const existing = await sql<{ n: number }>`
      select count(*)::int as n from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where t.tgname = 'rds_data_version_notify' and c.relname = 'data_version' and c.relnamespace = current_schema()::regnamespace
    `.execute(trx);
    if ((existing.rows[0]?.n ?? 0) > 0) return;
    await sql`
      create or replace function rds_notify_data_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify(${sql.lit(DATA_CHANGED_CHANNEL)}, new.version::text);
        return new;
      end $$
    `.execute(trx);
    await sql`
      create or replace trigger rds_data_version_notify after update on data_version
      for each row execute function rds_notify_data_changed()
    `.execute(trx);
  });
}
