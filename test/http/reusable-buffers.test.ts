import { describe, expect, it } from 'vitest';
import { createReusableBuffers } from '../../src/http/reusable-buffers.js';

describe('reusable answer buffers', () => {
  it('gives buffers of the exact size asked, and the same memory again once handed back', () => {
    const buffers = createReusableBuffers();
    const a = buffers.take(10_000);
    const b = buffers.take(9_000);
    expect([a.length, b.length]).toEqual([10_000, 9_000]);
    // Both out at once: never the same memory.
    expect(a.buffer).not.toBe(b.buffer);
    buffers.give(a);
    expect(buffers.idleBytes()).toBe(16_384);
    const c = buffers.take(12_000);
    expect(c.buffer).toBe(a.buffer);
    expect(c.length).toBe(12_000);
    expect(buffers.idleBytes()).toBe(0);
    // Another size class does not take it.
    buffers.give(c);
    expect(buffers.take(100_000).buffer).not.toBe(a.buffer);
  });

  it('keeps a buffer handed back twice only once, so two answers never share it', () => {
    const buffers = createReusableBuffers();
    const a = buffers.take(5_000);
    buffers.give(a);
    buffers.give(a);
    expect(buffers.idleBytes()).toBe(8_192);
    const first = buffers.take(5_000);
    const second = buffers.take(5_000);
    expect(first.buffer).not.toBe(second.buffer);
  });

  it('keeps no more than its idle budget, nothing oversized and nothing it did not give', () => {
    const buffers = createReusableBuffers(20_000);
    const out = [1, 2, 3].map(() => buffers.take(8_000));
    for (const b of out) buffers.give(b);
    expect(buffers.idleBytes()).toBe(16_384);
    const huge = buffers.take(2 * 1024 * 1024);
    expect(huge.length).toBe(2 * 1024 * 1024);
    buffers.give(huge);
    buffers.give(Buffer.from('pooled by Node'));
    buffers.give(Buffer.alloc(8_192).subarray(1));
    expect(buffers.idleBytes()).toBe(16_384);
  });
});
