/**
 * A process's CPU cycles and instructions over a window, from the kernel's hardware counters through
 * `perf stat -p PID` (Linux perf, when installed and allowed). On a virtual machine shared with other
 * guests, CPU time (/proc) counts the moments the host ran another guest on our vCPU too, so CPU µs per
 * request moved by half between identical runs on the bench machine; cycles count only what ran, and
 * instructions measure the work itself (equal within 2 % between runs of one build). Absent perf, or
 * where the counters are not exposed, `start` returns null and the bench reports CPU time alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Counts {
  cycles: number;
  instructions: number;
}

export interface CounterWindow {
  /** Stops counting and returns what was counted since start (null when perf printed no counts). */
  stop(): Promise<Counts | null>;
}

let available: boolean | undefined;

function perfWorks(): boolean {
  if (available === undefined) {
    const probe = spawnSync('perf', ['stat', '-x,', '-e', 'instructions', '--', 'true'], { encoding: 'utf8' });
    available = probe.status === 0 && /instructions/.test(probe.stderr) && !/not supported|<not counted>/.test(probe.stderr);
  }
  return available;
}

export function startCounters(pid: number): CounterWindow | null {
  if (!perfWorks()) return null;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rds-perf-'));
  const out = path.join(dir, 'stat.csv');
  const child = spawn('perf', ['stat', '-x,', '-e', 'cycles,instructions', '-p', String(pid), '-o', out], { stdio: 'ignore' });
  // perf may end before stop (the measured process died): its counts are in the file all the same.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      // perf stat prints its counts when interrupted.
      child.kill('SIGINT');
      await exited;
      try {
        const counts: Partial<Counts> = {};
        for (const line of readFileSync(out, 'utf8').split('\n')) {
          const [value, , event] = line.split(',');
          const n = Number(value);
          if (event?.startsWith('cycles') && Number.isFinite(n)) counts.cycles = n;
          if (event?.startsWith('instructions') && Number.isFinite(n)) counts.instructions = n;
        }
        return counts.cycles !== undefined && counts.instructions !== undefined ? (counts as Counts) : null;
      } catch {
        return null;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
