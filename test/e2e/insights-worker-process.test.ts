import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { ensureBuilt, startReplica, type Replica } from '../support/replica.js';

/** The pids of `parent`'s child processes whose command line names `script` (Linux /proc). */
function childrenRunning(parent: number, script: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(script)) found.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');

/**
 * Resident memory: the insights engine runs in a child process, so its memory (most of a first
 * start's) is given back when it exits, which a worker thread's was not; and it never outlives the
 * server, even one killed without a chance to end it.
 */
describe.runIf(process.platform === 'linux')('the insights worker process', () => {
  let dir = '';
  let server: Replica | undefined;
  beforeAll(async () => {
    await ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rds-worker-'));
  }, 240_000);
  afterAll(async () => {
    await server?.kill9();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('computes a first start insights in a child process that exits with the server, even a killed one', async () => {
    // The demo business: its first start computes insights (no stored document yet).
    // BASE_URL: the test runner's environment has Vite's `/`, which is not one.
    server = await startReplica('a', { DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, BASE_URL: 'http://rds.test' }, 60_000);
    const parent = server.pid;
    const [worker] = await eventually('the insights worker process', 30_000, async () => {
      const pids = childrenRunning(parent, 'insights-worker');
      return pids.length > 0 ? pids : undefined;
    });
    await eventually('the first insights', 60_000, async () => (await fetch(`${server!.origin}/insights.json`)).status === 200);
    expect(alive(worker!)).toBe(true);
    await server.kill9();
    await eventually('the worker to exit after its server', 30_000, async () => !alive(worker!));
  }, 180_000);
});
