import { describe, expect, it } from 'vitest';
import { runDeferred, type TimeSlicer } from '../../src/snapshot/time-slice.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A slicer whose pauses wait until `release()`: the background makes no progress meanwhile. */
function gatedSlicer() {
  const waiting: (() => void)[] = [];
  const slicer: TimeSlicer = { due: () => true, pause: () => new Promise<void>((resolve) => waiting.push(resolve)) };
  return {
    slicer,
    /** Lets pending promise work reach its pause, lets every waiting pause go on, then their continuations run. */
    async release() {
      await turn();
      for (const resolve of waiting.splice(0)) resolve();
      for (let i = 0; i < 5; i++) await turn();
    },
  };
}

/** Steps that count how often they are resumed, and return how many ran. */
function counted(steps: number, log: string[]): Generator<void, number> {
  return (function* () {
    for (let i = 0; i < steps; i++) {
      log.push(`step ${i}`);
      yield;
    }
    log.push('end');
    return steps;
  })();
}

describe('runDeferred (indexes built after start-up)', () => {
  it('does no step before its first pause, then one step per slice', async () => {
    const gate = gatedSlicer();
    const log: string[] = [];
    const deferred = runDeferred(counted(3, log), gate.slicer);
    expect(log).toEqual([]);
    await gate.release();
    expect(log).toEqual(['step 0']);
    await gate.release();
    expect(log).toEqual(['step 0', 'step 1']);
    await gate.release();
    await gate.release();
    expect(log).toEqual(['step 0', 'step 1', 'step 2', 'end']);
    await expect(deferred.done).resolves.toBe(3);
    expect(deferred.get()).toBe(3);
  });

  it('get() finishes the remaining steps at once, and the background does not resume them', async () => {
    const gate = gatedSlicer();
    const log: string[] = [];
    const deferred = runDeferred(counted(4, log), gate.slicer);
    await gate.release();
    expect(log).toEqual(['step 0']);
    expect(deferred.get()).toBe(4);
    expect(log).toEqual(['step 0', 'step 1', 'step 2', 'step 3', 'end']);
    await expect(deferred.done).resolves.toBe(4);
    await gate.release();
    await gate.release();
    expect(log).toHaveLength(5);
    expect(deferred.get()).toBe(4);
  });

  it('starts no step before `after` settles', async () => {
    const gate = gatedSlicer();
    const log: string[] = [];
    let listening!: () => void;
    const deferred = runDeferred(counted(2, log), gate.slicer, new Promise<void>((resolve) => (listening = resolve)));
    await gate.release();
    await gate.release();
    expect(log).toEqual([]);
    listening();
    await gate.release();
    expect(log).toEqual(['step 0']);
    expect(deferred.get()).toBe(2);
  });

  it('a step that throws: get() throws it and done rejects with it, with no unhandled rejection', async () => {
    const gate = gatedSlicer();
    const failing = (function* (): Generator<void, number> {
      yield;
      throw new Error('index failed');
    })();
    const deferred = runDeferred(failing, gate.slicer);
    await gate.release();
    await gate.release();
    await expect(deferred.done).rejects.toThrow('index failed');
    expect(() => deferred.get()).toThrow('index failed');
  });
});
