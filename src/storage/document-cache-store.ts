import type { Kysely, Selectable } from 'kysely';
import type { DocumentCacheStore, StoredDocument } from '../domain/ports.js';
import type { Database, DocumentsTable } from './schema.js';

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

/**
 * The document cache (migration 0005) over Kysely: one row per document, the same upsert on both
 * databases. One small statement, not a transaction: on SQLite it waits for an import's lock without
 * blocking the event loop (connect.ts), and it never moves the change counter (no rebuild, no NOTIFY).
 */
export function createDocumentCacheStore(db: Kysely<Database>): DocumentCacheStore {
  return {
    async read(name) {
      const row = await db.selectFrom('documents').selectAll().where('name', '=', name).executeTakeFirst();
      return row ? toDocument(row) : undefined;
    },

    async write(d) {
      const changed = {
        input_hash: d.inputHash,
        body: d.body,
        last_modified: new Date(d.lastModified).toISOString(),
        weak_date: d.weakDate ? 1 : 0,
        rendered_at: d.renderedAt,
      };
      await db
        .insertInto('documents')
        .values({ name: d.name, ...changed })
        .onConflict((oc) => oc.column('name').doUpdateSet(changed))
        .execute();
    },
  };
}
