/**
 * Memory of a server under repeated imports, without HTTP load: every --every seconds another process
 * imports the whole dataset with one review changed (--all: every review), and every 5 s the bench
 * samples the server's RSS, its insights worker's, and from /metrics the V8 heap in use and in total and
 * the external memory (array buffers: the documents' bytes). A leak is a heap in use that does not come
 * back after each rebuild; a rebuild's double buffer and V8's grown young generation come back once the
 * process is idle (src/ops/idle-memory.ts).
 *
 *   npm run build && npx tsx bench/import-memory.ts [--reviews 5000] [--imports 30] [--every 10] [--all]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createTempDir, writeLargeDataset } from './lib/dataset.js';
import { stopAllChildren } from './lib/processes.js';
import { importDataset, sqliteUrl, startService, waitForInsights } from './lib/service.js';

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '5000' },
    imports: { type: 'string', default: '30' },
    every: { type: 'string', default: '10' },
    all: { type: 'boolean', default: false },
    'settle-seconds': { type: 'string', default: '40' },
  },
});
const TOKEN = 'bench-import-memory';

/** VmRSS in MB of one process (Linux), 0 when it is gone. */
function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const mb = (text: string, name: string) => Math.round(Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20);

interface Sample {
  s: number;
  server_mb: number;
  worker_mb: number;
  heap_used_mb: number;
  heap_total_mb: number;
  external_mb: number;
  after_import?: number;
}

const tmp = createTempDir('rds-import-memory-');
try {
  const file = writeLargeDataset(tmp.path, Number(values.reviews));
  const db = sqliteUrl(tmp.path);
  await importDataset(file, db);
  const service = await startService({ databaseUrl: db, env: { METRICS_TOKEN: TOKEN } });
  await waitForInsights(service);
  const pid = service.child.process.pid!;
  const dataset = JSON.parse(readFileSync(file, 'utf8')) as { reviews: { title: string | null }[] };
  const samples: Sample[] = [];
  const started = Date.now();
  let imported = 0;
  const sample = async () => {
    const text = await fetch(`${service.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.text());
    samples.push({
      s: Math.round((Date.now() - started) / 1000),
      server_mb: Math.round(rssOf(pid)),
      worker_mb: Math.round(childrenOf(pid).reduce((sum, p) => sum + rssOf(p), 0)),
      heap_used_mb: mb(text, 'nodejs_heap_size_used_bytes'),
      heap_total_mb: mb(text, 'nodejs_heap_size_total_bytes'),
      external_mb: mb(text, 'nodejs_external_memory_bytes'),
      ...(imported > 0 ? { after_import: imported } : {}),
    });
  };
  const timer = setInterval(() => void sample().catch(() => undefined), 5000);
  const changed = path.join(tmp.path, 'changed.json');
  for (let i = 1; i <= Number(values.imports); i++) {
    await new Promise((r) => setTimeout(r, Number(values.every) * 1000));
    for (const r of values.all ? dataset.reviews : dataset.reviews.slice(0, 1)) r.title = `Import ${i}`;
    writeFileSync(changed, JSON.stringify(dataset));
    await importDataset(changed, db);
    imported = i;
  }
  await new Promise((r) => setTimeout(r, Number(values['settle-seconds']) * 1000));
  clearInterval(timer);
  await sample();
  console.log(
    JSON.stringify(
      {
        machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}`,
        load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
        reviews: Number(values.reviews),
        imports: imported,
        samples,
      },
      null,
      1,
    ),
  );
  await service.stop();
} finally {
  await stopAllChildren();
  tmp.remove();
}
