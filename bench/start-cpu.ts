/**
 * Start-up time and memory of a built server on a copy of a given SQLite database: spawn
 * → first 200 of `/reviews.json`, with the process's CPU at that moment (`/proc/PID/stat`, all threads,
 * and the main thread alone from `/proc/PID/task/PID/stat`) and its VmRSS. Several builds are started in
 * turn, run after run, so a before and an after share the machine's load.
 *
 *   npx tsx bench/start-cpu.ts --db path/to/db.sqlite [--builds DIR,DIR] [--runs 3] [--idle-seconds 0]
 *
 * `--builds` names package directories holding a `dist/` (default: this one); `--idle-seconds` also
 * reports VmRSS after that long without requests. Make the database with `review-data import` (a first
 * start after an import) and keep a copy after one server has run on it (a second start).
 */
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, HOST, startChild, stopAllChildren, waitForOk } from './lib/processes.js';
import { processCpuMs, ROOT, rssMb } from './lib/service.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    builds: { type: 'string', default: ROOT },
    runs: { type: 'string', default: '3' },
    'idle-seconds': { type: 'string', default: '0' },
  },
});
if (!values.db) throw new Error('--db names the SQLite database to start on (a copy is used)');
const template = path.resolve(values.db);
const builds = values.builds.split(',').map((b) => path.resolve(b));
const idleMs = Number(values['idle-seconds']) * 1000;

async function startOnce(build: string): Promise<Record<string, unknown>> {
  const db = path.join(os.tmpdir(), `rds-start-${process.pid}.sqlite`);
  const remove = () => ['', '-wal', '-shm'].forEach((ext) => rmSync(db + ext, { force: true }));
  remove();
  copyFileSync(template, db);
  const port = await freePort();
  const env = { ...process.env, DATABASE_URL: `sqlite:${db}`, PORT: String(port), HOST, LOG_LEVEL: 'warn', DEMO_ON_EMPTY: 'false' };
  const child = startChild(process.execPath, [path.join(build, 'dist', 'cli', 'index.js'), 'serve'], env);
  try {
    const okAt = await waitForOk(`http://${HOST}:${port}/reviews.json`, child, 600_000, 5);
    const pid = child.process.pid!;
    const row: Record<string, unknown> = {
      build: path.basename(build),
      wall_ms: okAt - child.spawnedAt,
      cpu_ms: processCpuMs(pid),
      main_thread_cpu_ms: processCpuMs(pid, pid),
      rss_mb: Math.round(rssMb(pid)),
      load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0],
    };
    if (idleMs > 0) {
      await new Promise((r) => setTimeout(r, idleMs));
      row.rss_mb_idle = Math.round(rssMb(pid));
    }
    return row;
  } finally {
    await child.stop();
    remove();
  }
}

try {
  for (let i = 0; i < Number(values.runs); i++) for (const build of builds) console.log(JSON.stringify(await startOnce(build)));
} finally {
  await stopAllChildren();
}
