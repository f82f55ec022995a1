import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { collectGarbage, startIdleMemory, type IdleMemory } from '../../src/ops/idle-memory.js';
import { runModule } from '../support/child-module.js';

const SOURCE = fileURLToPath(new URL('../../src/ops/idle-memory.ts', import.meta.url));
// The checks are called by the test; the timer never fires within it.
const NEVER = 2 ** 30;

describe('idle memory (resident memory given back)', () => {
  let idle: IdleMemory | null = null;
  afterEach(async () => {
    await idle?.stop();
    idle = null;
  });

  /** A process whose event loop reports the given utilizations, one per check. */
  function setup(loads: number[], heapBytes = 1) {
    let snapshot = {};
    const collections: object[] = [];
    idle = startIdleMemory({
      current: () => snapshot,
      collect: () => {
        collections.push(snapshot);
        return Promise.resolve();
      },
      checkMs: NEVER,
      quietChecks: 3,
      quietUtilization: 0.05,
      maxHeapBytes: 100,
      heapUsed: () => heapBytes,
      utilization: () => loads.shift() ?? 0,
    });
    return { idle, collections, publish: () => (snapshot = {}) };
  }

  async function checks(idle: IdleMemory, n: number): Promise<boolean[]> {
    const out: boolean[] = [];
    for (let i = 0; i < n; i++) out.push(await idle.check());
    return out;
  }

  it('collects once the loop has been quiet for three checks, and once per snapshot', async () => {
    const { idle, collections, publish } = setup([0, 0.01, 0.5, 0, 0.02, 0.04, 0, 0, 0, 0.9]);
    // A busy check (0.5) starts the count again.
    expect(await checks(idle, 6)).toEqual([false, false, false, false, false, true]);
    expect(collections).toHaveLength(1);
    // Same snapshot: nothing new to give back, however long it idles.
    expect(await checks(idle, 3)).toEqual([false, false, false]);
    // The build of the next one keeps the loop busy (0.9); then three quiet checks.
    publish();
    expect(await checks(idle, 4)).toEqual([false, false, false, true]);
    expect(collections).toHaveLength(2);
    expect(collections[0]).not.toBe(collections[1]);
  });

  it('never collects while the snapshot is incomplete (a slow document is being rendered)', async () => {
    const collections: unknown[] = [];
    let complete = false;
    const snapshot = {};
    idle = startIdleMemory({
      current: () => (complete ? snapshot : null),
      collect: () => {
        collections.push(snapshot);
        return Promise.resolve();
      },
      checkMs: NEVER,
      quietChecks: 2,
      heapUsed: () => 1,
      utilization: () => 0,
    });
    expect(await checks(idle, 4)).toEqual([false, false, false, false]);
    complete = true;
    expect(await checks(idle, 1)).toEqual([true]);
    expect(collections).toHaveLength(1);
  });

  it('never collects a heap larger than the bound (the pause would be long)', async () => {
    const { idle, collections } = setup([], 101);
    expect(await checks(idle, 5)).toEqual([false, false, false, false, false]);
    expect(collections).toHaveLength(0);
  });

  it('a failed collection is reported, and not tried again for the same snapshot', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    idle = startIdleMemory({
      current: () => FIXED,
      collect: () => {
        calls++;
        return Promise.reject(new Error('no inspector'));
      },
      checkMs: NEVER,
      quietChecks: 1,
      heapUsed: () => 1,
      utilization: () => 0,
      onError: (e) => errors.push(e),
    });
    expect(await checks(idle, 3)).toEqual([false, false, false]);
    expect(calls).toBe(1);
    expect(errors).toHaveLength(1);
  });

  it('collectGarbage collects what nothing references', async () => {
    const ref = (() => new WeakRef({ payload: new Array(1000).fill('x') }))();
    // WeakRef targets are kept until the current job ends.
    await new Promise((r) => setImmediate(r));
    await collectGarbage();
    expect(ref.deref()).toBeUndefined();
  });

  it('a process that collected still exits on its own', async () => {
    const code = `import { collectGarbage } from ${JSON.stringify(SOURCE)}; await collectGarbage(); console.log('collected');`;
    const { out, exit } = await runModule(code);
    expect(out.trim()).toBe('collected');
    // Killed by the timer (null) when the loop stays alive after the session (see collectGarbage).
    expect(exit).toBe(0);
  });
});

const FIXED = { same: true };
