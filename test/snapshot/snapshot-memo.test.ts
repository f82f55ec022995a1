import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  createMemoBucket,
  createSnapshotMemo,
  DEFAULT_MEMO_BUDGETS,
  memoBucket,
  memoValue,
  type MemoEntry,
} from '../../src/snapshot/snapshot-memo.js';

/** A full collection, without starting the test runner with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const answer = (bytes: number): MemoEntry & { body: Buffer } => ({ body: Buffer.alloc(bytes, 0x61), bytes });
const bucketOf = (budget: number) => createMemoBucket<MemoEntry & { body: Buffer }>(budget, (a) => a.bytes);

describe('a memo bucket: answers within a byte budget', () => {
  it('computes once per key', () => {
    const bucket = bucketOf(10_000);
    let computed = 0;
    const compute = () => (computed++, answer(100));
    const first = bucket.get('k', compute);
    expect(bucket.get('k', compute)).toBe(first);
    expect(computed).toBe(1);
    expect(bucket.bytes()).toBe(100 + 2);
  });

  it('drops the least recently used answers to stay within the budget', () => {
    const bucket = bucketOf(350);
    const x = bucket.get('x', () => answer(100));
    bucket.get('y', () => answer(100));
    bucket.get('z', () => answer(100));
    expect(bucket.get('x', () => answer(100))).toBe(x); // x is now the most recent: y goes next
    bucket.get('w', () => answer(100));
    expect(bucket.bytes()).toBeLessThanOrEqual(350);
    expect(bucket.get('x', () => answer(100))).toBe(x);
    const y = bucket.get('y', () => answer(100));
    expect(bucket.get('y', () => answer(1))).toBe(y);
  });

  it('serves an answer larger than the budget without keeping it, and keeps nothing at budget 0', () => {
    const small = bucketOf(50);
    expect(small.get('big', () => answer(100)).body.length).toBe(100);
    expect(small.bytes()).toBe(0);
    const none = bucketOf(0);
    none.get('small', () => answer(1));
    none.put('kept', answer(10));
    expect(none.bytes()).toBe(0);
    expect(none.peek('kept')).toBeUndefined();
  });

  it('shares an answer larger than the budget while it is in memory, and forgets it once collected', async () => {
    const bucket = bucketOf(50);
    let computed = 0;
    const compute = () => (computed++, answer(100));
    // Concurrent requests for it share the one copy; it is not counted against the budget. The
    // reference ends with this function: nothing else keeps the answer alive.
    (() => {
      const big = bucket.get('big', compute);
      expect(bucket.get('big', compute)).toBe(big);
    })();
    expect(computed).toBe(1);
    expect(bucket.bytes()).toBe(0);
    // Once the collector frees it, the next request builds it again.
    await new Promise((r) => setImmediate(r));
    collectGarbage();
    expect(bucket.get('big', compute).body.length).toBe(100);
    expect(computed).toBe(2);
    // A budget of 0 shares nothing either.
    const none = bucketOf(0);
    const held = none.get('huge', compute);
    expect(none.get('huge', compute)).not.toBe(held);
  });

  it('replaces the answer of a key put again, counting it once', () => {
    const bucket = bucketOf(1000);
    bucket.put('k', answer(100));
    const second = answer(200);
    bucket.put('k', second);
    expect(bucket.peek('k')).toBe(second);
    expect(bucket.bytes()).toBe(200 + 2);
  });

  it('tells whether a key was asked before, or is kept', () => {
    const bucket = bucketOf(1000);
    expect(bucket.askedBefore('q')).toBe(false);
    expect(bucket.askedBefore('q')).toBe(true);
    bucket.put('kept', answer(10));
    expect(bucket.askedBefore('kept')).toBe(true);
    // Asked keys are forgotten once their characters pass the bound, so they cannot grow without limit.
    const long = 'x'.repeat(100 * 1024);
    expect([0, 1, 2].map((i) => bucket.askedBefore(`${long}${i}`))).toEqual([false, false, false]);
    expect(bucket.askedBefore(`${long}0`)).toBe(false);
    const none = bucketOf(0);
    expect(none.askedBefore('r')).toBe(false);
    expect(none.askedBefore('r')).toBe(false);
  });
});

describe('a snapshot memo: named buckets with the budgets it was given', () => {
  const data = memoBucket<MemoEntry>('search', 'answers');
  const pages = memoBucket<MemoEntry>('pages', 'pages');
  const parsed = memoValue<{ n: number }>('parsed', { readsDocuments: true });
  const tags = memoValue<{ n: number }>('tags', { readsDocuments: false });

  it('gives each handle its bucket, within the budget named for it', () => {
    const memo = createSnapshotMemo({ ...DEFAULT_MEMO_BUDGETS, search: 123, pages: 0 });
    expect(memo.bucket(data)).toBe(memo.bucket(data));
    expect(memo.bucket(data).budget).toBe(123);
    expect(memo.bucket(pages).budget).toBe(0);
    // Another memo (another snapshot) has buckets of its own.
    expect(createSnapshotMemo().bucket(data)).not.toBe(memo.bucket(data));
    expect(createSnapshotMemo().bucket(data).budget).toBe(DEFAULT_MEMO_BUDGETS.search);
  });

  it('keeps the keys of two handles of one bucket apart, within the one budget', () => {
    const memo = createSnapshotMemo({ ...DEFAULT_MEMO_BUDGETS, search: 250 });
    const other = memoBucket<MemoEntry>('search', 'other answers');
    memo.bucket(data).put('k', { bytes: 100 });
    expect(memo.bucket(other).peek('k')).toBeUndefined();
    memo.bucket(other).put('k', { bytes: 100 });
    expect(memo.bucket(data).peek('k')).toBeDefined();
    // Both count against the bucket's budget: a third answer pushes out the least recently used (the
    // other handle's `k`: the first handle's was just asked for).
    memo.bucket(other).put('j', { bytes: 100 });
    expect(memo.bucket(data).bytes()).toBeLessThanOrEqual(250);
    expect(memo.bucket(other).peek('k')).toBeUndefined();
    expect(memo.bucket(data).peek('k')).toBeDefined();
  });

  it('computes a value once', () => {
    const memo = createSnapshotMemo();
    let computed = 0;
    const one = memo.value(parsed, () => ({ n: ++computed }));
    expect(memo.value(parsed, () => ({ n: ++computed }))).toBe(one);
    expect(computed).toBe(1);
  });

  it('carries into a copy with new documents only what does not read them', () => {
    const memo = createSnapshotMemo();
    memo.bucket(data).put('k', { bytes: 1 });
    memo.bucket(pages).put('p', { bytes: 1 });
    const tagValue = memo.value(tags, () => ({ n: 1 }));
    memo.value(parsed, () => ({ n: 1 }));
    const copy = memo.forNewDocuments();
    expect(copy.bucket(data).peek('k')).toBeDefined();
    expect(copy.bucket(pages).peek('p')).toBeUndefined();
    expect(copy.value(tags, () => ({ n: 2 }))).toBe(tagValue);
    expect(copy.value(parsed, () => ({ n: 2 })).n).toBe(2);
  });
});
