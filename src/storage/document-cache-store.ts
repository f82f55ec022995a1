import { sql, type Kysely, type Selectable } from 'kysely';
import type { DocumentCacheStore, StoredDocument } from '../domain/ports.js';
import type { DialectName } from './connect.js';
import type { Database, DocumentsTable } from './schema.js';

/**
 * How long a SQLite write of the server waits for another process's write lock. better-sqlite3 is
 * synchronous: the connection's busy_timeout (10 s, for imports) would stall every request that long
 * while an import holds the lock. A cache write may fail instead; the caller retries later (issue 15).
 */
export const SQLITE_CACHE_BUSY_MS = 50;

function toDocument(row: Selectable<DocumentsTable>): StoredDocument {
  return {
    name: row.name,
    inputHash: row.input_hash,
    body: row.body,
    lastModified: Date.parse(row.last_modified),
    weakDate: Number(row.weak_date) === 1,
    renderedAt: row.rendered_at,
  };
}

/** The document cache (migration 0006) over Kysely: one row per document, the same upsert on both databases. */
export function createDocumentCacheStore(db: Kysely<Database>, dialect: DialectName): DocumentCacheStore {
  const upsert = (d: StoredDocument, on: Kysely<Database>) => {
    const values = {
      name: d.name,
      input_hash: d.inputHash,
      body: d.body,
      last_modified: new Date(d.lastModified).toISOString(),
      weak_date: d.weakDate ? 1 : 0,
      rendered_at: d.renderedAt,
    };
    const { name: _name, ...changed } = values;
    return on
      .insertInto('documents')
      .values(values)
      .onConflict((oc) => oc.column('name').doUpdateSet(changed))
      .execute();
  };
  return {
    async read(name) {
      const row = await db.selectFrom('documents').selectAll().where('name', '=', name).executeTakeFirst();
      return row ? toDocument(row) : undefined;
    },

    async write(document) {
      if (dialect === 'postgres') {
        await upsert(document, db);
        return;
      }
      // One connection, held for the three statements: no other query runs between them.
      await db.connection().execute(async (conn) => {
        const before = await sql<{ timeout: number }>`pragma busy_timeout`.execute(conn);
        await sql.raw(`pragma busy_timeout = ${SQLITE_CACHE_BUSY_MS}`).execute(conn);
        try {
          await upsert(document, conn);
        } finally {
          await sql.raw(`pragma busy_timeout = ${Number(before.rows[0]?.timeout ?? 10_000)}`).execute(conn);
        }
      });
    },
  };
}
