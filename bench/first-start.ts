// Time from `npm start` to the first 200 of GET /reviews.json, in the checkout it runs in.
// Usage: npx tsx bench/first-start.ts [--runs 3] [--empty] [--direct]
//   --empty   remove data/reviews.db first, so the start loads the demo as a fresh clone's first start does
//   --direct  `node dist/cli/index.js serve` instead of `npm start` (the server alone, without npm)
// Also prints the CPU time the started processes had used at the first 200 (Linux): on a shared, busy
// machine it moves far less than the wall time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { freePort } from '../test/e2e/processes.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, empty: { type: 'boolean' }, direct: { type: 'boolean' } },
});

/** utime + stime, in ms, of every live process in a process group (from /proc; null elsewhere). */
function groupCpuMs(pgrp: number): number | null {
  let total = 0;
  try {
    for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Clock ticks are 100 Hz on Linux.
      if (Number(fields[2]) === pgrp) total += (Number(fields[11]) + Number(fields[12])) * 10;
    }
  } catch {
    return null;
  }
  return total;
}

const times: number[] = [];
const cpus: number[] = [];
for (let run = 0; run < Number(values.runs); run++) {
  if (values.empty) for (const f of fs.readdirSync('data').filter((n) => n.startsWith('reviews.db'))) fs.rmSync(`data/${f}`);
  const port = await freePort();
  const started = performance.now();
  const [command, args] = values.direct ? [process.execPath, ['dist/cli/index.js', 'serve']] : ['npm', ['start']];
  const child = spawn(command, args, { env: { ...process.env, PORT: String(port) }, stdio: 'ignore', detached: true });
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/reviews.json`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  times.push((performance.now() - started) / 1000);
  const cpu = groupCpuMs(child.pid!);
  if (cpu !== null) cpus.push(cpu);
  process.kill(-child.pid!, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`first 200 after ${times.map((t) => t.toFixed(2)).join(', ')} s (median ${median(times).toFixed(2)} s)`);
if (cpus.length)
  console.log(`CPU used by then ${cpus.map((c) => (c / 1000).toFixed(2)).join(', ')} s (median ${(median(cpus) / 1000).toFixed(2)} s)`);
