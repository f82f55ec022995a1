import { randomBytes } from 'node:crypto';
import type { McpSessionRecord, McpSessionStore } from '../domain/mcp-session-port.js';

export interface SessionManagerOptions {
  store: McpSessionStore;
  /** Idle time after which a session expires (MCP_SESSION_TTL_SECONDS). */
  ttlSeconds: number;
  /**
   * Live sessions kept at most (MCP_MAX_SESSIONS); creating one more evicts the least recently used idle
   * one, and is refused while every live session is in use.
   */
  maxSessions: number;
  /** Injected clock (tests); defaults to the wall clock. */
  now?: () => number;
  /** How often expired rows are swept; 0 disables the timer (tests sweep by hand). */
  sweepIntervalMs?: number;
  onError?: (error: unknown) => void;
}

export type SessionLookup = { ok: true; session: McpSessionRecord } | { ok: false };

/** A new session, or why none could be made now (every live session is in use). */
export type SessionCreation = { ok: true; session: McpSessionRecord } | { ok: false; reason: string; retryAfterSeconds: number };

export interface SessionManager {
  create(protocolVersion: string): Promise<SessionCreation>;
  /** The live session with this id, its idle timer restarted; `ok: false` when unknown, expired or ended. */
  use(id: string): Promise<SessionLookup>;
  end(id: string): Promise<boolean>;
  sweep(): Promise<number>;
  close(): void;
}

/**
 * Legacy-era sessions (MCP 2025-11-25 §Transports, "Session Management"), kept in the shared store
 * rather than in process memory: any replica accepts a session another one created, a DELETE on one
 * replica ends it everywhere, and a process holds nothing per idle session, so abandoned sessions
 * (clients rarely send DELETE) cost a table row until they expire, never heap.
 *
 * The id is 256 random bits in base64url: visible ASCII, as §Session Management requires, and
 * unguessable. It carries no data, so nothing needs signing and there is no secret to share.
 */
export function createSessionManager(options: SessionManagerOptions): SessionManager {
  const { store, ttlSeconds, maxSessions } = options;
  const now = options.now ?? Date.now;
  const ttlMs = ttlSeconds * 1000;
  // Writing the last use on every request would turn each read into a write; a session's expiry
  // may lag its last use by this much (a tenth of the TTL, at most a minute).
  const touchSlackMs = Math.min(ttlMs / 10, 60_000);
  const iso = (ms: number) => new Date(ms).toISOString();
  // A session used within this window is in use and is never evicted to make room (issue 11 M4: eviction
  // must not be aimable at live clients). Last use is recorded with up to touchSlackMs of lag.
  const activeWindowMs = Math.min(ttlMs, 5 * 60_000) + touchSlackMs;

  let timer: NodeJS.Timeout | undefined;
  if (options.sweepIntervalMs !== 0) {
    const every = options.sweepIntervalMs ?? Math.min(ttlMs, 60_000);
    timer = setInterval(() => {
      store.removeExpired(iso(now())).catch((error: unknown) => options.onError?.(error));
    }, every);
    timer.unref();
  }

  return {
    async create(protocolVersion) {
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
      const session: McpSessionRecord = {
        id: randomBytes(32).toString('base64url'),
        protocolVersion,
        createdAt: iso(t),
        lastUsedAt: iso(t),
        expiresAt: iso(t + ttlMs),
      };
      await store.insert(session);
      return { ok: true, session };
    },

    async use(id) {
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

    end: (id) => store.remove(id),

    sweep: () => store.removeExpired(iso(now())),

    close() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
