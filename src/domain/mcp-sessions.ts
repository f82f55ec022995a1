import { randomBytes } from 'node:crypto';
import type { McpSessionRecord, McpSessionStore } from './mcp-session-port.js';

export interface SessionManagerOptions {
  store: McpSessionStore;
  /** Idle time after which a session expires (MCP_SESSION_TTL_SECONDS). */
  ttlSeconds: number;
  /** Live sessions kept at most (MCP_MAX_SESSIONS): one more evicts the least recently used idle one. */
  maxSessions: number;
  /** Injected clock (tests); defaults to the wall clock. */
  now?: (() => number) | undefined;
  /** Told when the store could not record a session (the client is told to retry). */
  onError?: (error: unknown) => void;
}

/** A new session, or why none could be made now (every live session is in use). */
export type SessionCreation = { ok: true; session: McpSessionRecord } | { ok: false; reason: string; retryAfterSeconds: number };

export type SessionManager = ReturnType<typeof createSessionManager>;

/**
 * Legacy-era MCP sessions (MCP 2025-11-25 §Transports, "Session Management"), kept in the shared store rather
 * than in process memory: any replica accepts a session another one created, a DELETE on one replica ends
 * it everywhere, and a process holds nothing per idle session (clients rarely send DELETE), so abandoned
 * sessions cost a table row until they expire, never heap. The id is 256 random bits in base64url:
 * visible ASCII, as §Session Management requires, unguessable, and carrying no data, so nothing is signed.
 */
export function createSessionManager(options: SessionManagerOptions) {
  const { store, ttlSeconds, maxSessions } = options;
  const now = options.now ?? Date.now;
  const ttlMs = ttlSeconds * 1000;
  // Writing the last use on every request would turn each read into a write; a session's expiry may lag
  // its last use by this much (a tenth of the TTL, at most a minute).
  const touchSlackMs = Math.min(ttlMs / 10, 60_000);
  const iso = (ms: number) => new Date(ms).toISOString();
  // A session used within this window is in use and never evicted to make room, so that eviction cannot
  // be aimed at live clients.
  const activeWindowMs = Math.min(ttlMs, 5 * 60_000) + touchSlackMs;

  async function insert(protocolVersion: string): Promise<SessionCreation> {
    const t = now();
    const live = await store.countLive(iso(t));
    if (live >= maxSessions) {
      await store.removeExpired(iso(t));
      const excess = live - maxSessions + 1;
      const evicted = await store.removeLeastRecentlyUsed(excess, iso(t - activeWindowMs));
      if (evicted < excess && (await store.countLive(iso(t))) >= maxSessions) {
        const retryAfterSeconds = Math.ceil(Math.min(activeWindowMs, ttlMs) / 1000);
        return { ok: false, reason: `all ${maxSessions} sessions are in use; try again later.`, retryAfterSeconds };
      }
    }
    const id = randomBytes(32).toString('base64url');
    const session: McpSessionRecord = { id, protocolVersion, createdAt: iso(t), lastUsedAt: iso(t), expiresAt: iso(t + ttlMs) };
    await store.insert(session);
    return { ok: true, session };
  }

  return {
    /**
     * A new session, or why there is none now: every live session in use, or the store unable to record it
     * (disk full, database unreachable), passing conditions the client is told to retry (RFC 9110 §15.6.4).
     */
    async create(protocolVersion: string): Promise<SessionCreation> {
      return insert(protocolVersion).catch((error: unknown) => {
        options.onError?.(error);
        return { ok: false, reason: 'could not record the session; try again shortly.', retryAfterSeconds: 5 };
      });
    },

    /** The live session with this id, its idle timer restarted; `ok: false` when unknown, expired or ended. */
    async use(id: string): Promise<{ ok: true; session: McpSessionRecord } | { ok: false }> {
      // Ids we never issue are not worth a query.
      if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return { ok: false };
      const session = await store.get(id);
      const t = now();
      if (!session || Date.parse(session.expiresAt) <= t) return { ok: false };
      if (t - Date.parse(session.lastUsedAt) >= touchSlackMs) {
        session.lastUsedAt = iso(t);
        session.expiresAt = iso(t + ttlMs);
        await store.touch(id, session.lastUsedAt, session.expiresAt);
      }
      return { ok: true, session };
    },

    end: (id: string) => store.remove(id),

    /** Removes the expired sessions (the transport calls it now and then); returns how many. */
    sweep: () => store.removeExpired(iso(now())),

    /** How often to sweep: a minute, or the TTL when shorter. */
    sweepIntervalMs: Math.min(ttlMs, 60_000),
  };
}
