import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestDatabase } from '../support/postgres.js';
import { describePostgres } from '../support/postgres-suite.js';
import { ensureBuilt, runCli, startReplica, type Replica } from '../support/replica.js';
import { businessDoc, datasetFile, importRecord } from './dataset.js';
import { eventually } from '../support/eventually.js';

// Timeouts: each rendering starts a worker that loads the NLP libraries (seconds of CPU, many more
// under the whole suite's load); nothing here asserts a duration.

/**
 * Three `review-data serve` processes on one PostgreSQL database render each new
 * insights document once between them. One claims the rendering, the others serve their previous
 * document until they read its rendering from the database; a renderer that stops renewing its claim
 * (here: SIGSTOP) is replaced once the claim lapses. Tests run in order and share the replicas.
 */

const TOKEN = 'insights-replicas-metrics';
// The default: short leases risk a takeover from a holder only starved of CPU (the whole suite runs beside it).
const LEASE_MS = 10_000;

type Outcomes = Record<'computed' | 'unchanged' | 'adopted', number>;

/** The replica's `insights_renderings_total` by outcome (/metrics). */
async function outcomes(r: Replica): Promise<Outcomes> {
  const text = await (await fetch(`${r.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const count = (o: string) => Number(new RegExp(`^insights_renderings_total\\{outcome="${o}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { computed: count('computed'), unchanged: count('unchanged'), adopted: count('adopted') };
}

const minus = (a: Outcomes, b: Outcomes): Outcomes => ({
  computed: a.computed - b.computed,
  unchanged: a.unchanged - b.unchanged,
  adopted: a.adopted - b.adopted,
});

await describePostgres('insights rendered once for three replicas', ({ freshDatabase }) => {
  let database: TestDatabase;
  let dir: string;
  let env: Record<string, string>;
  let replicas: Replica[] = [];
  let check: pg.Pool;
  let imports = 0;
  let imported = 0;

  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await check.query<R>(text, values)).rows;
  const insights = async (r: Replica) => {
    const res = await fetch(`${r.origin}/insights.json`, { headers: { 'accept-encoding': 'identity' } });
    return { etag: res.headers.get('etag'), body: await res.text() };
  };
  const reviewCount = (body: string) => (JSON.parse(body) as { review_count: number }).review_count;

  /**
   * Imports `reviews` more reviews through the CLI (another process), each with its own text (so each
   * is analysed afresh); resolves to the published review count.
   */
  async function importChange(reviews = 1): Promise<number> {
    imports++;
    const file = path.join(dir, `change-${imports}.json`);
    const records = Array.from({ length: reviews }, (_, k) =>
      importRecord(`change-${imports}-${k}`, `Change number ${imports}.${k}: Ana fixed the drain in ${k + 1} minutes.`, k),
    );
    await fs.writeFile(file, JSON.stringify(records));
    const r = await runCli(['import', file], env);
    expect(r.code, r.stderr).toBe(0);
    imported += reviews;
    return 12 + imported;
  }

  /** Waits until every replica in `rs` serves insights over `count` reviews, and returns their bodies. */
  async function serving(rs: Replica[], count: number, ms = 120_000) {
    return eventually(`${rs.map((r) => r.name).join(', ')} to serve insights over ${count} reviews`, ms, async () => {
      const seen = await Promise.all(rs.map(insights));
      return seen.every((s) => reviewCount(s.body) === count) ? seen : false;
    });
  }

  beforeAll(async () => {
    await ensureBuilt();
    database = await freshDatabase();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-insights-'));
    env = {
      DATABASE_URL: database.url,
      BASE_URL: 'https://reviews.example.test',
      DEMO_ON_EMPTY: 'false',
      LOG_LEVEL: 'warn',
      METRICS_TOKEN: TOKEN,
      INSIGHTS_RENDER_LEASE_MS: String(LEASE_MS),
    };
    await fs.writeFile(path.join(dir, 'dataset.json'), JSON.stringify(datasetFile(businessDoc(), 12)));
    const first = await runCli(['import', path.join(dir, 'dataset.json')], env);
    expect(first.code, first.stderr).toBe(0);
    check = new pg.Pool({ connectionString: database.url, max: 2 });
    check.on('error', () => {});
    const started = await Promise.allSettled(['a', 'b', 'c'].map((n) => startReplica(n, env)));
    replicas = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    // Each first snapshot renders its own (a cold start: a request may wait for it).
    await serving(replicas, 12);
  }, 300_000);

  afterAll(async () => {
    for (const r of replicas) r.child.kill('SIGCONT');
    await Promise.allSettled(replicas.map((r) => r.stop(10_000)));
    await Promise.allSettled(replicas.map((r) => r.kill9()));
    await check?.end().catch(() => {});
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('one replica computes a change, the other two serve its very bytes and never compute it', async () => {
    const before = await Promise.all(replicas.map(outcomes));
    const count = await importChange();
    const seen = await serving(replicas, count);
    expect(new Set(seen.map((s) => `${s.etag} ${s.body}`)).size, seen.map((s) => s.etag).join(' | ')).toBe(1);
    const delta = (await Promise.all(replicas.map(outcomes))).map((o, i) => minus(o, before[i]!));
    const sum = (k: keyof Outcomes) => delta.reduce((n, d) => n + d[k], 0);
    expect(sum('computed'), JSON.stringify(delta)).toBe(1);
    expect(sum('adopted'), JSON.stringify(delta)).toBe(2);
    // The stored document is the one every replica serves, under the input hash that was claimed.
    const [stored] = await query<{ body: string; input_hash: string }>(
      "select body, input_hash from documents where name = 'insights.json'",
    );
    expect(stored?.body).toBe(seen[0]!.body);
    const claims = await query<{ holder: string }>("select holder from render_claims where name = 'insights.json' and input_hash = $1", [
      stored?.input_hash,
    ]);
    expect(claims).toHaveLength(1);
  }, 180_000);

  it('a renderer that stops renewing its claim is replaced once the claim lapses', async () => {
    // The holder could finish before it is stopped (a warm worker analyses one new review in
    // milliseconds, as fast as the stop): each change brings a thousand new texts, seconds of analysis;
    // should the holder still finish first, no takeover is needed, and the next change tries again.
    for (let attempt = 1; ; attempt++) {
      const known = new Set((await query<{ input_hash: string }>('select input_hash from render_claims')).map((r) => r.input_hash));
      const before = await Promise.all(replicas.map(outcomes));
      const count = await importChange(1000);
      const claim = await eventually('a claim on the new insights', 10_000, async () =>
        (await query<{ input_hash: string; holder: string }>('select input_hash, holder from render_claims')).find(
          (c) => !known.has(c.input_hash),
        ),
      );
      // Holders are host:pid:random (server.ts).
      const holder = replicas.find((r) => r.pid === Number(claim.holder.split(':')[1]));
      expect(holder, `claim ${claim.holder} belongs to a replica`).toBeDefined();
      holder!.child.kill('SIGSTOP');
      // A stopped process sends nothing more, but a commit it sent just before (its rendering stored)
      // still lands on the server: let such a statement finish before asking whether it stored one.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const others = replicas.filter((r) => r !== holder);
      const rendered = await query('select 1 from documents where input_hash = $1', [claim.input_hash]);
      if (rendered.length > 0 && attempt < 3) {
        holder!.child.kill('SIGCONT');
        await serving(replicas, count);
        continue;
      }
      expect(rendered, 'the holder was stopped before it stored its rendering').toHaveLength(0);
      try {
        const seen = await serving(others, count);
        expect(seen[0]!.body).toBe(seen[1]!.body);
        const [taken] = await query<{ holder: string }>('select holder from render_claims where input_hash = $1', [claim.input_hash]);
        expect(taken?.holder).not.toBe(claim.holder);
        expect(others.some((r) => taken?.holder.split(':')[1] === String(r.pid))).toBe(true);
        const delta = (await Promise.all(others.map(outcomes))).map((o, i) => minus(o, before[replicas.indexOf(others[i]!)]!));
        expect(
          delta.reduce((n, d) => n + d.computed, 0),
          JSON.stringify(delta),
        ).toBe(1);
      } finally {
        holder!.child.kill('SIGCONT');
      }
      // The stopped one, resumed, finishes its own rendering: the same bytes as the others'.
      const all = await serving(replicas, count);
      expect(new Set(all.map((s) => s.body)).size).toBe(1);
      return;
    }
  }, 600_000);
});
