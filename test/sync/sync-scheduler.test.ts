import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SyncSource } from '../../src/domain/sync-ports.js';
import type { RunOptions, SyncEngine, SyncRunResult } from '../../src/sync/sync-engine.js';
import { createSyncScheduler } from '../../src/sync/sync-scheduler.js';

/** An engine that records each run's options and answers what the test scripts (a run takes `runMs`). */
function fakeEngine(runMs = 100) {
  const calls: { source: SyncSource; at: number; options: RunOptions }[] = [];
  let answer: (source: SyncSource) => SyncRunResult['outcome'] = () => 'success';
  const engine: SyncEngine = {
    async run(source, options = {}): Promise<SyncRunResult> {
      calls.push({ source, at: Date.now(), options });
      await new Promise((r) => setTimeout(r, runMs));
      const outcome = answer(source);
      if (outcome === 'skipped') return { outcome, source };
      if (outcome === 'failed' || outcome === 'cancelled') return { outcome, source, code: 'x', message: 'x', durationMs: runMs };
      return {
        outcome,
        source,
        pages: 1,
        durationMs: runMs,
        summary: { added: 0, updated: 0, unchanged: 0, deleted: 0, unpublished: 0, business: 'absent' },
      };
    },
  };
  return { engine, calls, script: (f: typeof answer) => (answer = f) };
}

const log = { info: () => undefined, warn: () => undefined };

/** Closes while the fake clock runs on, so a run in progress can end. */
async function closing(s: { close(): Promise<void> }) {
  const done = s.close();
  await vi.advanceTimersByTimeAsync(2000);
  await done;
}

describe('when sync runs happen (contract §3.2)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-06-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at start-up, then asks every fifth of the interval whether a run is due', async () => {
    const { engine, calls } = fakeEngine();
    const s = createSyncScheduler({ engine, sources: ['google'], intervalMs: 10_000, log });
    await vi.advanceTimersByTimeAsync(1500);
    s.start();
    expect(calls).toHaveLength(1);
    // The start-up run yields only to a run that started since this scheduler (this process) did.
    expect(calls[0]!.options.notStartedWithinMs).toBe(1500);
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(2);
    // A scheduled run: due when no run started within the last interval (the store decides, on its clock).
    expect(calls[1]!.options.notStartedWithinMs).toBe(10_000);
    await vi.advanceTimersByTimeAsync(8000);
    expect(calls).toHaveLength(6);
    await closing(s);
  });

  it('a push runs at once, unconditionally, and a push during a run runs again after it', async () => {
    const { engine, calls } = fakeEngine(500);
    const s = createSyncScheduler({ engine, sources: ['google'], intervalMs: 60_000, log });
    s.start();
    await vi.advanceTimersByTimeAsync(600);
    s.push('google');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.options).toEqual({});
    // Three pushes while that run works: one more run after it, not three.
    s.push('google');
    s.push('google');
    s.push('google');
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(3);
    expect(calls[2]!.options).toEqual({});
    await closing(s);
  });

  it('a push that finds another replica running tries again until it runs', async () => {
    const { engine, calls, script } = fakeEngine(10);
    let held = 3;
    script(() => (held-- > 0 ? 'skipped' : 'success'));
    const s = createSyncScheduler({ engine, sources: ['google', 'trustpilot'], intervalMs: 600_000, log, retryMs: 500 });
    s.push('google');
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls.filter((c) => c.source === 'google')).toHaveLength(4);
    expect(calls.some((c) => c.source === 'trustpilot')).toBe(false);
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls).toHaveLength(4);
    await closing(s);
  });

  it('a push whose run could not even claim (the store was down) is tried again, once at a time', async () => {
    const { engine, calls } = fakeEngine(10);
    let down = 2;
    const flaky: SyncEngine = {
      run: (source, options) => (down-- > 0 ? Promise.reject(new Error('store down')) : engine.run(source, options)),
    };
    const s = createSyncScheduler({ engine: flaky, sources: ['google'], intervalMs: 600_000, log, retryMs: 500 });
    s.push('google');
    s.push('google');
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.options).toEqual({});
    await closing(s);
  });

  it('closes: no run after close, and close waits for the run in progress', async () => {
    const { engine, calls } = fakeEngine(1000);
    const s = createSyncScheduler({ engine, sources: ['google'], intervalMs: 5000, log });
    s.start();
    let closed = false;
    void s.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(500);
    expect(closed).toBe(false);
    await vi.advanceTimersByTimeAsync(600);
    expect(closed).toBe(true);
    s.push('google');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(1);
  });
});
