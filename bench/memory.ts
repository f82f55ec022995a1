/**
 * Resident memory of a serving process (target: ≤ 150 MB idle and ≤ 250 MB under load at 10k reviews,
 * ≤ 600 MB at 100k): RSS (`VmRSS`, all threads, the insights worker included) once the first insights
 * are served and the process has been idle past the insights worker's idle exit (15 s by default), then
 * after a short mixed load; then again for a second start on the same database, whose stored insights
 * mean the worker never starts.
 *
 *   npm run build && npx tsx bench/memory.ts [--reviews 10000,100000] [--load-seconds 10] [--idle-seconds 15] [--build DIR]
 *
 * `--build DIR`: the server of another package directory holding a `dist/` (a before and an after in one session).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createTempDir, writeLargeDataset } from './lib/dataset.js';
import { stopAllChildren } from './lib/processes.js';
import { importDataset, rssMb, sqliteUrl, startService, waitForInsights } from './lib/service.js';

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '10000,100000' },
    'load-seconds': { type: 'string', default: '10' },
    'idle-seconds': { type: 'string', default: '15' },
    build: { type: 'string' },
  },
});
const build = values.build ? { build: path.resolve(values.build) } : {};
Object.assign(process.env, { MAX_CONNECTIONS_PER_ADDRESS: '0' });

const rows: Record<string, unknown>[] = [];
for (const count of values.reviews.split(',').map(Number)) {
  const tmp = createTempDir('rds-mem-');
  try {
    const db = sqliteUrl(tmp.path);
    await importDataset(writeLargeDataset(tmp.path, count), db);
    for (const start of ['first', 'second']) {
      const service = await startService({ ...build, databaseUrl: db, timeoutMs: 600_000 });
      const pid = service.child.process.pid!;
      const atFirst200 = Math.round(rssMb(pid));
      await waitForInsights(service);
      await new Promise((r) => setTimeout(r, Number(values['idle-seconds']) * 1000));
      const idle = Math.round(rssMb(pid));
      await autocannon({
        url: service.base,
        connections: 10,
        duration: Number(values['load-seconds']),
        requests: [
          { method: 'GET', path: '/reviews.json', headers: { 'accept-encoding': 'gzip' } },
          { method: 'GET', path: '/api/reviews/search?rating=5&limit=20' },
          { method: 'GET', path: '/api/reviews/search?query=drain&sort=oldest' },
          { method: 'GET', path: '/api/reviews/since/2025-01-01' },
          { method: 'GET', path: '/feed.xml' },
          { method: 'GET', path: '/insights.json' },
        ],
      });
      const loaded = Math.round(rssMb(pid));
      rows.push({ reviews: count, start, rss_mb_at_first_200: atFirst200, rss_mb_idle: idle, rss_mb_after_load: loaded });
      await service.stop();
    }
  } finally {
    await stopAllChildren();
    tmp.remove();
  }
}
console.log(JSON.stringify(rows, null, 2));
