import type { Kysely } from 'kysely';

/**
 * Legacy-era MCP sessions (MCP 2025-11-25 §Transports, session management), stored so that any
 * replica accepts a session another one created and a DELETE on one replica ends it on all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mcp_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('protocol_version', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  // Sweeping expired sessions and evicting the least recently used ones both scan by time.
  await db.schema.createIndex('mcp_sessions_expires_at').on('mcp_sessions').column('expires_at').execute();
  await db.schema.createIndex('mcp_sessions_last_used_at').on('mcp_sessions').column('last_used_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mcp_sessions').execute();
}
