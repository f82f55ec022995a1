/**
 * MCP benchmark: what 10,000 idle 2025-era sessions cost a server process. Sessions live in
 * the store (a table row each), so the target is "under 100 MB of extra RSS"; the expected answer is
 * close to nothing. Also reports how long `initialize` takes when it creates them.
 *
 *   npm run build && npx tsx bench/mcp-sessions.ts [--sessions 10000] [--concurrency 20]
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createTempDir } from './lib/dataset.js';
import { stopAllChildren } from './lib/processes.js';
import { sqliteUrl, startService } from './lib/service.js';

const { values } = parseArgs({
  options: { sessions: { type: 'string', default: '10000' }, concurrency: { type: 'string', default: '20' } },
});
const total = Number(values.sessions);
const concurrency = Number(values.concurrency);
const log = (msg: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) / 1024;
}

async function initialize(mcp: string): Promise<string> {
  const r = await fetch(mcp, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  await r.arrayBuffer();
  const id = r.headers.get('mcp-session-id');
  if (r.status !== 200 || !id) throw new Error(`initialize: HTTP ${r.status}`);
  return id;
}

async function openMany(mcp: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next++;
        ids.push(await initialize(mcp));
      }
    }),
  );
  return ids;
}

async function main(): Promise<void> {
  const dir = createTempDir('rds-bench-mcp-sessions-');
  try {
    const service = await startService({ databaseUrl: sqliteUrl(dir.path) });
    const pid = service.child.process.pid!;
    const mcp = `${service.base}/mcp`;
    // Warm-up: code paths compiled, pools and caches filled, before the baseline is taken.
    await openMany(mcp, 500);
    await new Promise((r) => setTimeout(r, 1000));
    const before = rssMb(pid);
    log(`baseline RSS ${before.toFixed(1)} MB; opening ${total} sessions`);
    const started = Date.now();
    const ids = await openMany(mcp, total);
    const seconds = (Date.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 1000));
    const after = rssMb(pid);
    // Every session still works: sample a few.
    for (const id of [ids[0]!, ids[Math.floor(ids.length / 2)]!, ids.at(-1)!]) {
      const r = await fetch(mcp, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      });
      if (r.status !== 200) throw new Error(`session ${id} answered ${r.status}`);
    }
    await service.stop();
    console.log(
      [
        `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} x${os.cpus().length}, Node ${process.version}. Command: \`npx tsx bench/mcp-sessions.ts --sessions ${total} --concurrency ${concurrency}\` (${new Date().toISOString().slice(0, 10)}).`,
        '',
        '| idle sessions | RSS before | RSS after | extra RSS | target | initialize rate |',
        '|---:|---:|---:|---:|---:|---:|',
        `| ${total} | ${before.toFixed(1)} MB | ${after.toFixed(1)} MB | ${(after - before).toFixed(1)} MB | < 100 MB | ${Math.round(total / seconds)}/s |`,
      ].join('\n'),
    );
    if (after - before >= 100) process.exitCode = 1;
  } finally {
    await stopAllChildren();
    dir.remove();
  }
}

await main();
