import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createAnswerCache } from './answer-cache.js';
import { createRepresentation, type Representation } from './rendered-document.js';
import type { Snapshot } from './snapshot.js';

/** A full collection, without starting the test runner with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

// The cache only keys on the snapshot's identity.
const snapshot = () => ({}) as Snapshot;
const answer = (bytes: number) => createRepresentation(Buffer.alloc(bytes, 0x61), 'application/json', 0);
const cacheOf = (bytes: number) => {
  const budget = { bytes };
  return { budget, cache: createAnswerCache<Representation>(() => budget.bytes) };
};

describe('answers cached per snapshot within a byte budget', () => {
  it('computes once per key and snapshot, and again for another snapshot', () => {
    const { cache } = cacheOf(10_000);
    const a = snapshot();
    let computed = 0;
    const compute = () => (computed++, answer(100));
    const first = cache.get(a, 'k', compute);
    expect(cache.get(a, 'k', compute)).toBe(first);
    expect(computed).toBe(1);
    expect(cache.get(snapshot(), 'k', compute)).not.toBe(first);
    expect(computed).toBe(2);
    expect(cache.bytes(a)).toBe(100 + 2);
  });

  it('drops the least recently used answers to stay within the budget', () => {
    const { cache } = cacheOf(350);
    const s = snapshot();
    const x = cache.get(s, 'x', () => answer(100));
    cache.get(s, 'y', () => answer(100));
    cache.get(s, 'z', () => answer(100));
    expect(cache.get(s, 'x', () => answer(100))).toBe(x); // x is now the most recent: y goes next
    cache.get(s, 'w', () => answer(100));
    expect(cache.bytes(s)).toBeLessThanOrEqual(350);
    expect(cache.get(s, 'x', () => answer(100))).toBe(x);
    const y = cache.get(s, 'y', () => answer(100));
    expect(cache.get(s, 'y', () => answer(1))).toBe(y);
  });

  it('serves an answer larger than the budget without keeping it, and keeps nothing at budget 0', () => {
    const { cache, budget } = cacheOf(50);
    const s = snapshot();
    expect(cache.get(s, 'big', () => answer(100)).body.length).toBe(100);
    expect(cache.bytes(s)).toBe(0);
    budget.bytes = 0;
    cache.get(s, 'small', () => answer(1));
    expect(cache.bytes(s)).toBe(0);
    budget.bytes = 1000;
    cache.put(s, 'kept', answer(10));
    expect(cache.peek(s, 'kept')).toBeDefined();
    budget.bytes = 0;
    expect(cache.peek(s, 'kept')).toBeUndefined();
  });

  it('shares an answer larger than the budget while it is in memory, and forgets it once collected', async () => {
    const { cache, budget } = cacheOf(50);
    const s = snapshot();
    let computed = 0;
    const compute = () => (computed++, answer(100));
    // Concurrent requests for it share the one copy; it is not counted against the budget. The
    // reference ends with this function: nothing else keeps the answer alive.
    (() => {
      const big = cache.get(s, 'big', compute);
      expect(cache.get(s, 'big', compute)).toBe(big);
    })();
    expect(computed).toBe(1);
    expect(cache.bytes(s)).toBe(0);
    // Once the collector frees it, the next request builds it again.
    await new Promise((r) => setImmediate(r));
    collectGarbage();
    expect(cache.get(s, 'big', compute).body.length).toBe(100);
    expect(computed).toBe(2);
    // A budget of 0 shares nothing either.
    budget.bytes = 0;
    const held = cache.get(s, 'huge', compute);
    expect(cache.get(s, 'huge', compute)).not.toBe(held);
  });

  it('replaces the answer of a key put again, counting it once', () => {
    const { cache } = cacheOf(1000);
    const s = snapshot();
    cache.put(s, 'k', answer(100));
    const second = answer(200);
    cache.put(s, 'k', second);
    expect(cache.peek(s, 'k')).toBe(second);
    expect(cache.bytes(s)).toBe(200 + 2);
  });

  it('tells whether a key was asked before in the snapshot, or is kept', () => {
    const { budget, cache } = cacheOf(1000);
    const s = snapshot();
    expect(cache.askedBefore(s, 'q')).toBe(false);
    expect(cache.askedBefore(snapshot(), 'q')).toBe(false);
    expect(cache.askedBefore(s, 'q')).toBe(true);
    cache.put(s, 'kept', answer(10));
    expect(cache.askedBefore(s, 'kept')).toBe(true);
    // Asked keys are forgotten once their characters pass the bound, so they cannot grow without limit.
    const long = 'x'.repeat(100 * 1024);
    expect([0, 1, 2].map((i) => cache.askedBefore(s, `${long}${i}`))).toEqual([false, false, false]);
    expect(cache.askedBefore(s, `${long}0`)).toBe(false);
    budget.bytes = 0;
    expect(cache.askedBefore(s, 'r')).toBe(false);
    expect(cache.askedBefore(s, 'r')).toBe(false);
  });
});
