import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/domain/rate-limit.js';
import { createManualTime } from '../support/manual-time.js';

describe('hub rate limit (contract §6)', () => {
  it('allows a burst of perMinute, then refuses with a Retry-After until a token is back', () => {
    const time = createManualTime();
    const limiter = createRateLimiter({ perMinute: 3, clock: time.clock });
    expect([1, 2, 3].map(() => limiter.take('a').ok)).toEqual([true, true, true]);
    const refused = limiter.take('a');
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 20 });
    expect(limiter.take('b').ok).toBe(true); // per address
    time.advance(19_000);
    expect(limiter.take('a').ok).toBe(false);
    time.advance(1_000);
    expect(limiter.take('a').ok).toBe(true);
  });

  it('0 turns it off; the table of addresses stays bounded', () => {
    const time = createManualTime();
    expect(createRateLimiter({ perMinute: 0, clock: time.clock }).take('a').ok).toBe(true);
    const limiter = createRateLimiter({ perMinute: 1, clock: time.clock, maxClients: 2 });
    limiter.take('a');
    limiter.take('b');
    limiter.take('c'); // evicts a: only ever lets a client through early
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('c').ok).toBe(false);
  });
});
