/**
 * WebSub subscription request benchmark: how many valid `POST /api/websub/hub` subscribe
 * requests per second the hub accepts (validated, stored durably, 202), while it verifies them in the
 * background against an HTTPS subscriber farm. Target: at least 2,000 requests/s.
 *
 *   npm run build && npx tsx bench/websub-subscribe.ts [--duration 10] [--connections 50]
 *
 * Every request has its own callback, so each one is a new intent and
 * a real verification GET. The per-address rate limit is off (WEBSUB_RATE_LIMIT=0): all load comes from
 * one address.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { importFiles } from '../src/import/import-files.js';
import { openDatabase } from '../src/storage/connect.js';
import { createReviewStore } from '../src/storage/review-store.js';
import { seedDataset } from '../test/websub/support/test-hub-server.js';
import { createTempDir } from './lib/dataset.js';
import { stopAllChildren } from './lib/processes.js';
import { ROOT, sqliteUrl } from './lib/service.js';
import { makePki, rssMiB, startHubService, SubscriberFarm } from './websub-lib.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    // Verifications refused at connection time (private callbacks not allowed): request handling alone.
    'no-verify': { type: 'boolean', default: false },
  },
});
const log = (msg: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

const tmp = createTempDir('rds-bench-websub-sub-');
const pki = makePki(tmp.path);
const farm = new SubscriberFarm(pki);
try {
  await farm.start(4);
  const databaseUrl = sqliteUrl(tmp.path);
  const handle = await openDatabase(databaseUrl);
  await importFiles(createReviewStore(handle.db), { files: [seedDataset(tmp.path)], replace: false, assumeVerified: false });
  await handle.close();
  const hub = await startHubService(databaseUrl, pki, values['no-verify'] ? { WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'false' } : {});
  const pid = hub.child.process.pid as number;
  let seq = 0;
  const prefix = `hub.mode=subscribe&hub.topic=${encodeURIComponent(`${hub.base}/feed.xml`)}&hub.callback=`;
  const body = () => `${prefix}${encodeURIComponent(`https://127.0.0.1:${farm.ports[seq % farm.ports.length]}/cb/${seq++}`)}`;
  const run = (duration: number) =>
    autocannon({
      url: `${hub.base}/api/websub/hub`,
      method: 'POST',
      connections: Number(values.connections),
      duration,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      // a fresh callback per request (autocannon 8's [<id>] replacement sends nothing with a POST body)
      requests: [{ method: 'POST', setupRequest: (req: object) => ({ ...req, body: body() }) }],
    } as Parameters<typeof autocannon>[0]);
  await run(2); // warm-up
  const before = farm.verifications;
  log(`measuring ${values.duration} s with ${values.connections} connections`);
  const r = await run(Number(values.duration));
  const verifiedDuring = farm.verifications - before;
  // References measured in the same run, on a machine whose speed varies by 10x from minute to minute:
  // the same route with an invalid request (parsing and validation, nothing stored) and the cheapest
  // endpoint of the service (a 304 from a precomputed document).
  const invalid = await autocannon({
    url: `${hub.base}/api/websub/hub`,
    method: 'POST',
    connections: Number(values.connections),
    duration: Number(values.duration),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'hub.mode=subscribe',
  } as Parameters<typeof autocannon>[0]);
  const etag = (await fetch(`${hub.base}/feed.xml`)).headers.get('etag') ?? '';
  const notModified = await autocannon({
    url: `${hub.base}/feed.xml`,
    connections: Number(values.connections),
    duration: Number(values.duration),
    headers: { 'if-none-match': etag },
  });
  const rss = rssMiB(pid);
  await hub.stop();
  const summary = {
    when: new Date().toISOString(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model}, load ${os.loadavg()[0]?.toFixed(1)}`,
    node: process.version,
    connections: Number(values.connections),
    verifications: values['no-verify'] ? 'refused at connection' : 'real',
    requestsPerSecond: r.requests.average,
    latencyP50: r.latency.p50,
    latencyP99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    verifiedPerSecond: verifiedDuring / Number(values.duration),
    invalidRequestsPerSecond: invalid.requests.average,
    feed304PerSecond: notModified.requests.average,
    rssMiB: rss,
  };
  mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(path.join(ROOT, 'bench', 'results', `websub-subscribe-${Date.now()}.json`), JSON.stringify(summary, null, 2));
  console.log('| requests/s (202) | p50 | p99 | non-2xx | verifications/s meanwhile | server RSS peak |\n|---|---|---|---|---|---|');
  console.log(
    `| ${summary.requestsPerSecond.toFixed(0)} | ${summary.latencyP50} ms | ${summary.latencyP99} ms | ${summary.non2xx} | ${summary.verifiedPerSecond.toFixed(0)} | ${rss.peak.toFixed(0)} MiB |`,
  );
  console.log(
    `\nsame run, same server: invalid hub request (400) ${summary.invalidRequestsPerSecond.toFixed(0)}/s; GET /feed.xml 304 ${summary.feed304PerSecond.toFixed(0)}/s`,
  );
  console.log(`\n${summary.machine}; ${summary.node}`);
} finally {
  await farm.stop();
  await stopAllChildren();
  tmp.remove();
}
