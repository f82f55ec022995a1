/**
 * A check of the bench's method: does loading two servers side by side (`bench/foundation.ts
 * --side-by-side`) report a known difference of cost as it is? Three raw node:http servers answer the
 * same 304 (bench/lib/baseline-server.ts): A and B alike, C made dearer on purpose by busy-waiting
 * `--spin-us` microseconds before each answer. Each round measures A against B side by side (it should
 * read 1.00x), A against C side by side, and A and C one after the other (order alternating), each by
 * server CPU per request; C's own extra cost is known, so the ratio A's CPU ÷ C's CPU should be about
 * A ÷ (A + spin) whichever way it is measured, if the method neither hides nor adds a difference.
 *
 *   npx tsx bench/method-check.ts [--spin-us 5] [--rounds 4] [--duration 5] [--pin]
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startBaseline, type Baseline } from './lib/baseline.js';
import { createTempDir } from './lib/dataset.js';
import { runLoad, type LoadResult } from './lib/load.js';
import { lowerMedian } from './lib/median.js';
import { pinLoadGenerator, stopAllChildren } from './lib/processes.js';

const { values } = parseArgs({
  options: {
    'spin-us': { type: 'string', default: '5' },
    rounds: { type: 'string', default: '4' },
    duration: { type: 'string', default: '5' },
    pin: { type: 'boolean', default: false },
  },
});
const spinUs = Number(values['spin-us']);
const rounds = Number(values.rounds);
const duration = Number(values.duration);
if (!(spinUs > 0) || !(rounds > 0) || !(duration > 0))
  throw new Error('usage: method-check.ts [--spin-us 5] [--rounds 4] [--duration 5] [--pin]');
const cpus = values.pin ? pinLoadGenerator() : null;
if (values.pin && cpus === null) throw new Error('--pin: one CPU only, or no taskset');
const runtime = cpus ? { cpus } : {};

const ETAG = '"method-check"';
const load = (server: Baseline) =>
  runLoad({
    url: `${server.base}/reviews.json`,
    headers: { 'if-none-match': ETAG },
    expect: '3xx',
    duration,
    cpuPid: server.child.process.pid!,
  });
const cpuRatio = (a: LoadResult, b: LoadResult) => a.cpuUsPerRequest! / b.cpuUsPerRequest!;
const sleeps = (r: LoadResult) => (r.clientSleepsPerRequest === null ? 'n/a' : (r.clientSleepsPerRequest * 100).toFixed(0));

const tmp = createTempDir('rds-method-');
try {
  const bodyFile = path.join(tmp.path, 'body.json');
  writeFileSync(bodyFile, JSON.stringify({ reviews: [] }));
  const route = {
    url: '/reviews.json',
    headers: { 'content-type': 'application/json', etag: ETAG, 'cache-control': 'no-cache' },
    bodyFile,
    notModified: { etag: ETAG, headers: { etag: ETAG, 'cache-control': 'no-cache' } },
  };
  const a = await startBaseline([route], tmp.path, runtime);
  const b = await startBaseline([route], tmp.path, runtime);
  const c = await startBaseline([route], tmp.path, runtime, spinUs);
  const rows: { ab: number; acTogether: number; acApart: number; aApartCpu: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const [ab1, ab2] = await Promise.all([load(a), load(b)]);
    const [ac1, ac2] = await Promise.all([load(a), load(c)]);
    const [first, second] = round % 2 === 0 ? [a, c] : [c, a];
    const r1 = await load(first);
    const r2 = await load(second);
    const [apartA, apartC] = first === a ? [r1, r2] : [r2, r1];
    const row = {
      ab: cpuRatio(ab1, ab2),
      acTogether: cpuRatio(ac1, ac2),
      acApart: cpuRatio(apartA, apartC),
      aApartCpu: apartA.cpuUsPerRequest!,
    };
    rows.push(row);
    process.stderr.write(
      `round ${round + 1}: A/B side by side ${row.ab.toFixed(2)}x; A/C side by side ${row.acTogether.toFixed(2)}x (${ac1.cpuUsPerRequest!.toFixed(1)} / ${ac2.cpuUsPerRequest!.toFixed(1)} µs); ` +
        `A/C one after the other ${row.acApart.toFixed(2)}x (${apartA.cpuUsPerRequest!.toFixed(1)} / ${apartC.cpuUsPerRequest!.toFixed(1)} µs, ` +
        `${apartA.rps.toFixed(0)} / ${apartC.rps.toFixed(0)} req/s, load generator asleep ${sleeps(apartA)} / ${sleeps(apartC)} times per 100 answers)\n`,
    );
  }
  const expected = lowerMedian(rows.map((r) => r.aApartCpu / (r.aApartCpu + spinUs)));
  const fmt = (xs: number[]) => `${lowerMedian(xs).toFixed(2)}x (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;
  console.log(
    `\n${new Date().toISOString()} — ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} CPUs, Node ${process.version}; ` +
      `${cpus ? `servers on CPUs ${cpus}` : 'not pinned'}; C spins ${spinUs} µs per answer; ${rounds} rounds of ${duration} s\n\n` +
      '| comparison, server CPU per request | median (range) |\n|---|---:|\n' +
      `| A ÷ B, side by side (alike: 1.00x) | ${fmt(rows.map((r) => r.ab))} |\n` +
      `| A ÷ C, side by side | ${fmt(rows.map((r) => r.acTogether))} |\n` +
      `| A ÷ C, one after the other | ${fmt(rows.map((r) => r.acApart))} |\n` +
      `| A ÷ (A + ${spinUs} µs), A as measured alone | ${expected.toFixed(2)}x |`,
  );
} finally {
  await stopAllChildren();
  tmp.remove();
}
