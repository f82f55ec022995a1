import type { Kysely } from 'kysely';
import type { McpSessionRecord, McpSessionStore } from '../domain/mcp-session-port.js';
import type { Database } from './schema.js';

/** Table of migration 0003 (declared here, next to its only user, and added with `withTables`). */
export interface McpSessionsTable {
  id: string;
  protocol_version: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
}

function toRecord(row: McpSessionsTable): McpSessionRecord {
  return {
    id: row.id,
    protocolVersion: row.protocol_version,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
  };
}

/** MCP sessions over Kysely: the same queries on SQLite and PostgreSQL (ISO text timestamps). */
export function createMcpSessionStore(database: Kysely<Database>): McpSessionStore {
  const db = database.withTables<{ mcp_sessions: McpSessionsTable }>();
  // Every MCP request looks its session up: the statement is compiled once, run with each id.
  const byId = db.selectFrom('mcp_sessions').selectAll().where('id', '=', '').compile();
  return {
    async insert(s) {
      await db
        .insertInto('mcp_sessions')
        .values({
          id: s.id,
          protocol_version: s.protocolVersion,
          created_at: s.createdAt,
          last_used_at: s.lastUsedAt,
          expires_at: s.expiresAt,
        })
        .execute();
    },

    async get(id) {
      const { rows } = await db.executeQuery<McpSessionsTable>({ ...byId, parameters: [id] });
      return rows[0] ? toRecord(rows[0]) : undefined;
    },

    async touch(id, lastUsedAt, expiresAt) {
      await db.updateTable('mcp_sessions').set({ last_used_at: lastUsedAt, expires_at: expiresAt }).where('id', '=', id).execute();
    },

    async remove(id) {
      const r = await db.deleteFrom('mcp_sessions').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async removeExpired(now) {
      const r = await db.deleteFrom('mcp_sessions').where('expires_at', '<=', now).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    async countLive(now) {
      const r = await db
        .selectFrom('mcp_sessions')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    async removeLeastRecentlyUsed(count, usedBefore) {
      if (count <= 0) return 0;
      let victims = db.selectFrom('mcp_sessions').select('id');
      if (usedBefore !== undefined) victims = victims.where('last_used_at', '<', usedBefore);
      victims = victims.orderBy('last_used_at', 'asc').orderBy('id', 'asc').limit(count);
      const r = await db.deleteFrom('mcp_sessions').where('id', 'in', victims).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
