import { sql, type Kysely, type Selectable } from 'kysely';
import type { ClaimOptions } from '../../domain/websub-ports.js';
import type { Database } from '../schema.js';
import { iso } from './rows.js';

/** The tables whose rows workers claim, by their key. */
const KEYS = { websub_intents: 'id', websub_deliveries: 'subscription_id' } as const;
type ClaimTable = keyof typeof KEYS;

/**
 * The one claim query, for intents and deliveries alike: a conditional UPDATE of the due rows that are
 * free (never claimed, or the claim lapsed: its worker died or hung). The row changes hands only if it
 * is still free when the statement runs, which both databases decide atomically, so one worker wins.
 * A claim also moves `due_at` to the claim's expiry, so "due" alone finds lapsed claims through the
 * due_at index, and rows claimed in flight are never scanned by other workers' polls. PostgreSQL skips
 * rows another worker is claiming right now instead of queueing behind it.
 */
export async function claimDue<T extends ClaimTable>(
  db: Kysely<Database>,
  table: T,
  { worker, now, claimUntil, limit }: ClaimOptions,
  pg: boolean,
): Promise<Selectable<Database[T]>[]> {
  const at = iso(now);
  const until = iso(claimUntil);
  const key = sql.ref(KEYS[table]);
  const free = sql`(claimed_by is null or claim_expires_at < ${at})`;
  // SQLite: an UPDATE takes the write lock even when it matches nothing, and the hub polls every
  // second, so during another process's import it would wait for that import's whole transaction. A
  // read first (WAL readers never wait) leaves the lock alone when nothing is due.
  if (!pg) {
    const due = await sql`select 1 from ${sql.table(table)} where due_at <= ${at} and ${free} limit 1`.execute(db);
    if (due.rows.length === 0) return [];
  }
  const { rows } = await sql<Selectable<Database[T]>>`
    update ${sql.table(table)} set claimed_by = ${worker}, claim_expires_at = ${until}, due_at = ${until}
    where ${key} in (
      select ${key} from ${sql.table(table)} where due_at <= ${at} and ${free}
      order by due_at limit ${limit}${pg ? sql` for update skip locked` : sql``}
    )
    and ${free}
    returning *`.execute(db);
  return rows;
}
