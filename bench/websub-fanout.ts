/**
 * WebSub fan-out benchmark: N active HTTPS subscribers on loopback; after a change (an import
 * into the server's database, as another process would do it), how long until every subscriber holds the
 * new content, and the server's peak RSS. Target: 1,000 subscribers within 5 s.
 *
 *   npm run build && npx tsx bench/websub-fanout.ts [--subscribers 1000] [--origins 10] [--changes 3]
 *
 * The time includes noticing the change (the server polls its store every SNAPSHOT_POLL_MS, 1 s by
 * default), rebuilding the snapshot and the whole fan-out. Markdown to stdout, JSON to bench/results/.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { importFiles } from '../src/import/import-files.js';
import { openDatabase } from '../src/storage/connect.js';
import { createReviewStore } from '../src/storage/review-store.js';
import { review, seedDataset } from '../test/websub/support/test-hub-server.js';
import { createTempDir } from './lib/dataset.js';
import { stopAllChildren } from './lib/processes.js';
import { ROOT, sqliteUrl } from './lib/service.js';
import { makePki, percentile, rssMiB, startHubService, SubscriberFarm } from './websub-lib.js';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    origins: { type: 'string', default: '10' },
    changes: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '64' },
  },
});
const N = Number(values.subscribers);
const log = (msg: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

const tmp = createTempDir('rds-bench-websub-');
const pki = makePki(tmp.path);
const farm = new SubscriberFarm(pki);
try {
  await farm.start(Number(values.origins));
  const databaseUrl = sqliteUrl(tmp.path);
  const handle = await openDatabase(databaseUrl);
  const store = createReviewStore(handle.db);
  await importFiles(store, { files: [seedDataset(tmp.path)], replace: false, assumeVerified: false });
  const hub = await startHubService(databaseUrl, pki, {
    WEBSUB_CONCURRENCY: values.concurrency,
  });
  const pid = hub.child.process.pid as number;
  log(`server ${hub.base} (pid ${pid}), RSS ${rssMiB(pid).now.toFixed(0)} MiB; subscribing ${N} callbacks on ${values.origins} origins`);

  const topic = `${hub.base}/feed.xml`;
  const t0 = Date.now();
  for (let i = 0; i < N; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, N - i) }, async (_, k) => {
        const res = await fetch(`${hub.base}/api/websub/hub`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': farm.callback(i + k) }).toString(),
        });
        if (res.status !== 202) throw new Error(`subscribe → ${res.status} ${await res.text()}`);
      }),
    );
  }
  const active = async () =>
    Number(
      (
        await handle.db
          .selectFrom('websub_subscriptions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
  while ((await active()) < N) await new Promise((r) => setTimeout(r, 100));
  log(`${N} subscriptions verified and active in ${Date.now() - t0} ms`);

  const runs = [];
  for (let c = 0; c < Number(values.changes); c++) {
    await importFiles(store, { files: [writeChange(c)], replace: false, assumeVerified: false });
    const changedAt = Date.now();
    const want = createHash('sha256')
      .update(Buffer.from(await (await waitForChange(`${hub.base}/feed.xml`, `Bench change ${c}`)).arrayBuffer()))
      .digest('hex');
    // when the server first served the new feed: the fan-out proper starts about here
    const publishedAt = Date.now();
    const deadline = changedAt + 30_000;
    const done = () => [...Array(N).keys()].filter((i) => farm.last.get(`/cb/${i}`)?.hash === want).length;
    while (done() < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const times = [...Array(N).keys()].map((i) => (farm.last.get(`/cb/${i}`)?.at ?? Infinity) - changedAt).sort((a, b) => a - b);
    const all = times.at(-1) as number;
    const run = {
      change: c,
      delivered: done(),
      published: publishedAt - changedAt,
      first: times[0] as number,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      all,
      fanOut: all - (publishedAt - changedAt),
    };
    runs.push(run);
    log(`change ${c}: ${JSON.stringify(run)}; TLS connections so far ${farm.connections}`);
    await new Promise((r) => setTimeout(r, 1500));
  }
  const rss = rssMiB(pid);
  const feed = Buffer.from(await (await fetch(`${hub.base}/feed.xml`)).arrayBuffer());
  await hub.stop();
  // The floor on this machine right now: a bare undici client POSTing the same bytes to the same farm
  // with the same concurrency (no store, no claims). On a noisy machine, compare against this.
  const baseline = await bareFanOut(feed);
  log(`baseline: a bare client delivers the same ${feed.length} bytes to all ${N} in ${baseline} ms`);
  await handle.close();

  const result = {
    baselineMs: baseline,
    feedBytes: feed.length,
    when: new Date().toISOString(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    subscribers: N,
    origins: Number(values.origins),
    concurrency: Number(values.concurrency),
    runs,
    rssMiB: rss,
  };
  mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(path.join(ROOT, 'bench', 'results', `websub-fanout-${Date.now()}.json`), JSON.stringify(result, null, 2));
  console.log(
    `| change | delivered | served by GET | first POST | p50 | p95 | all hold it | all, from GET |\n|---|---|---|---|---|---|---|---|`,
  );
  for (const r of runs)
    console.log(
      `| ${r.change + 1} | ${r.delivered}/${N} | ${r.published} ms | ${r.first} ms | ${r.p50} ms | ${r.p95} ms | ${r.all} ms | ${r.fanOut} ms |`,
    );
  console.log(`\nbare undici client, same ${feed.length} bytes, same farm, concurrency ${values.concurrency}: ${baseline} ms for all ${N}`);
  console.log(`\nserver RSS at the end ${rss.now.toFixed(0)} MiB, peak ${rss.peak.toFixed(0)} MiB; ${result.machine}; ${result.node}`);
} finally {
  await farm.stop();
  await stopAllChildren();
  tmp.remove();
}

async function bareFanOut(body: Buffer): Promise<number> {
  const agent = new Agent({ connect: { ca: [...tls.rootCertificates, pki.caPem] } });
  const started = Date.now();
  const width = Number(values.concurrency);
  await Promise.all(
    Array.from({ length: width }, async (_, w) => {
      for (let i = w; i < N; i += width) {
        const res = await request(farm.callback(i), {
          method: 'POST',
          body,
          dispatcher: agent,
          headers: { 'content-type': 'application/atom+xml' },
        });
        await res.body.dump();
      }
    }),
  );
  const ms = Date.now() - started;
  await agent.close();
  return ms;
}

function writeChange(c: number): string {
  const file = path.join(tmp.path, `change-${c}.json`);
  writeFileSync(file, JSON.stringify([review(1000 + c, { date: '2025-09-01', text: `Bench change ${c}` })]));
  return file;
}

async function waitForChange(url: string, marker: string): Promise<Response> {
  for (;;) {
    const res = await fetch(url);
    const text = await res.clone().text();
    if (text.includes(marker)) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
}
