/** The time source (injected in tests). */
export interface RateClock {
  now(): number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(client: string): RateDecision;
}

/**
 * A token bucket per client address: `perMinute` requests in a burst, refilled evenly over a minute
 * (contract §6 WEBSUB_RATE_LIMIT, and MCP_SESSION_RATE_LIMIT for new MCP sessions; 0 turns the limit off).
 *
 * In memory, per process, on purpose: the limit protects this process and the callbacks it would be
 * made to call from a flood, not a quota to be billed. Behind N replicas a client gets at most N times
 * the rate, which is still bounded, and keeping the buckets in the store would add a write to every hub
 * request. The map is bounded: at `maxClients` the least recently seen buckets are dropped, which can
 * only ever let a client through early, never lock one out.
 */
export function createRateLimiter(options: { perMinute: number; clock: RateClock; maxClients?: number }): RateLimiter {
  const { perMinute, clock } = options;
  const maxClients = options.maxClients ?? 10_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = perMinute / 60_000;

  return {
    take(client) {
      if (perMinute <= 0) return { ok: true };
      const now = clock.now();
      const old = buckets.get(client);
      const tokens = old ? Math.min(perMinute, old.tokens + (now - old.at) * perMs) : perMinute;
      // Re-inserting keeps the Map in least-recently-seen order, so eviction takes from its front.
      buckets.delete(client);
      if (tokens < 1) {
        buckets.set(client, { tokens, at: now });
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
      }
      buckets.set(client, { tokens: tokens - 1, at: now });
      while (buckets.size > maxClients) {
        const oldest = buckets.keys().next().value;
        if (oldest === undefined) break;
        buckets.delete(oldest);
      }
      return { ok: true };
    },
  };
}
