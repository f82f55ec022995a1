/**
 * The port the MCP transport needs from the store for legacy-era sessions. Timestamps are ISO 8601
 * UTC text, which sorts in time order on SQLite and PostgreSQL alike.
 */
export interface McpSessionRecord {
  id: string;
  protocolVersion: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
}

export interface McpSessionStore {
  insert(session: McpSessionRecord): Promise<void>;
  get(id: string): Promise<McpSessionRecord | undefined>;
  /** Records use: a later last-use and expiry. */
  touch(id: string, lastUsedAt: string, expiresAt: string): Promise<void>;
  /** True when a session was removed. */
  remove(id: string): Promise<boolean>;
  /** Removes the sessions that expired at or before `now`; returns how many. */
  removeExpired(now: string): Promise<number>;
  /** Sessions that have not expired at `now`. */
  countLive(now: string): Promise<number>;
  /** Removes the `count` least recently used sessions, only among those last used before `usedBefore` when given. */
  removeLeastRecentlyUsed(count: number, usedBefore?: string): Promise<number>;
}
