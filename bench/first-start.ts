// Time from `npm start` to the first 200 of GET /reviews.json (issue 14), in the checkout it runs in.
// Usage: npx tsx bench/first-start.ts [--runs 3] [--empty] [--direct]
//   --empty   remove data/reviews.db first, so the start loads the demo as a fresh clone's first start does
//   --direct  `node dist/cli/index.js serve` instead of `npm start` (the server alone, without npm)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { freePort } from '../test/e2e/processes.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, empty: { type: 'boolean' }, direct: { type: 'boolean' } },
});
const times: number[] = [];
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
  process.kill(-child.pid!, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
console.log(
  `first 200 after ${times.map((t) => t.toFixed(2)).join(', ')} s (median ${times.sort((a, b) => a - b)[times.length >> 1]!.toFixed(2)} s)`,
);
