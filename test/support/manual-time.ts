import type { Clock, Scheduler } from '../../src/websub/clock.js';

/** A clock that moves only when told, and a scheduler whose timers fire as it moves (tests only). */
export function createManualTime(start = Date.parse('2026-01-01T00:00:00.000Z')) {
  let now = start;
  let timers: { at: number; fn: () => void }[] = [];
  const clock: Clock = { now: () => now };
  const scheduler: Scheduler = {
    setTimeout(fn, ms) {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
  };
  return {
    clock,
    scheduler,
    /** Moves time forward and fires the timers that fall due, in order. */
    advance(ms: number) {
      now += ms;
      const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fn();
    },
  };
}
