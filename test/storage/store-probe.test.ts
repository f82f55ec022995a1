import { describe, expect, it } from 'vitest';
import { createStoreProbe } from '../../src/storage/store-probe.js';

/** A read the test settles by hand, counted. */
function controlledReads() {
  const pending: { resolve(): void; reject(e: Error): void }[] = [];
  return {
    pending,
    read: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
  };
}

describe('store probe (readiness: slow is not unreachable)', () => {
  it('answers at once from the store when the read is quick, and fails when it fails', async () => {
    let up = true;
    const probe = createStoreProbe({ read: async () => (up ? 1 : Promise.reject(new Error('connection refused'))) });
    await expect(probe.check()).resolves.toBeUndefined();
    up = false;
    await expect(probe.check()).rejects.toThrow(/connection refused/);
    up = true;
    await expect(probe.check()).resolves.toBeUndefined();
  });

  it('keeps the previous verdict while a read is merely slow, and shares the read in flight', async () => {
    let t = 0;
    const reads = controlledReads();
    const probe = createStoreProbe({ read: reads.read, answerMs: 10, unreachableMs: 10_000, now: () => t });
    const started = Date.now();
    await expect(probe.check()).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
    t = 5000;
    await expect(probe.check()).resolves.toBeUndefined();
    expect(reads.pending).toHaveLength(1);
    reads.pending[0]!.resolve();
    await expect(probe.check()).resolves.toBeUndefined();
  });

  it('a read unanswered past unreachableMs makes it unready until a fresh read answers', async () => {
    let t = 0;
    const reads = controlledReads();
    const probe = createStoreProbe({ read: reads.read, answerMs: 10, unreachableMs: 10_000, now: () => t });
    await probe.check();
    t = 10_000;
    await expect(probe.check()).rejects.toThrow(/did not answer within 10000 ms/);
    // The hung read was given up for a fresh one; while that one is also slow, the verdict stays.
    expect(reads.pending).toHaveLength(2);
    t = 12_000;
    await expect(probe.check()).rejects.toThrow(/did not answer/);
    // The abandoned read answering late changes nothing; the fresh one answering does.
    reads.pending[0]!.resolve();
    await expect(probe.check()).rejects.toThrow(/did not answer/);
    reads.pending[1]!.resolve();
    await new Promise((r) => setTimeout(r, 0));
    await expect(probe.check()).resolves.toBeUndefined();
  });

  it('a failed read makes it unready at once, a slow one after it keeps it so', async () => {
    let t = 0;
    const reads = controlledReads();
    const probe = createStoreProbe({ read: reads.read, answerMs: 10, unreachableMs: 10_000, now: () => t });
    const first = probe.check();
    reads.pending[0]!.reject(new Error('ECONNRESET'));
    await expect(first).rejects.toThrow(/ECONNRESET/);
    t = 100;
    await expect(probe.check()).rejects.toThrow(/ECONNRESET/);
    reads.pending[1]!.resolve();
    await expect(probe.check()).resolves.toBeUndefined();
  });
});
