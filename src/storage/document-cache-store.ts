import type { Kysely, Selectable } from 'kysely';
import type { DocumentCacheStore, RenderClaimStore, StoredDocument } from '../domain/ports.js';
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

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The document cache (migration 0005) and the claims on its renderings (0009) over Kysely, the same
 * statements on both databases. Small single statements, not transactions: on SQLite each waits for an
 * import's lock without blocking the event loop (connect.ts), and none moves the change counter (no
 * rebuild, no NOTIFY).
 */
export function createDocumentCacheStore(db: Kysely<Database>): DocumentCacheStore & RenderClaimStore {
  return {
    async read(name, inputHash) {
      let query = db.selectFrom('documents').selectAll().where('name', '=', name);
      if (inputHash !== undefined) query = query.where('input_hash', '=', inputHash);
      const row = await query.executeTakeFirst();
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

    async claim({ name, inputHash, holder, now, until }) {
      // Lapsed claims on other inputs of this document are of no use to anyone: the table stays small.
      await db
        .deleteFrom('render_claims')
        .where('name', '=', name)
        .where('input_hash', '<>', inputHash)
        .where('expires_at', '<', iso(now))
        .execute();
      // One statement, decided atomically by either database: the row is inserted, or taken over when
      // it lapsed or is already this holder's; otherwise the conflict updates nothing and returns no row.
      // ISO timestamps of one width compare as text (as the WebSub claims do).
      const won = await db
        .insertInto('render_claims')
        .values({ name, input_hash: inputHash, holder, expires_at: iso(until) })
        .onConflict((oc) =>
          oc
            .columns(['name', 'input_hash'])
            .doUpdateSet({ holder, expires_at: iso(until) })
            .where((eb) => eb.or([eb('render_claims.expires_at', '<', iso(now)), eb('render_claims.holder', '=', holder)])),
        )
        .returning('holder')
        .executeTakeFirst();
      return won?.holder === holder;
    },

    async release({ name, inputHash, holder }) {
      await db
        .deleteFrom('render_claims')
        .where('name', '=', name)
        .where('input_hash', '=', inputHash)
        .where('holder', '=', holder)
        .execute();
    },
  };
}
