import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { FakeGoogle, GOOGLE_CLIENT, GOOGLE_LOCATION, GOOGLE_REFRESH, googleReview } from '../support/fake-platforms.js';
import { describePostgres } from '../support/postgres-suite.js';
import { CLI, ensureBuilt, PACKAGE_ROOT, runCli, startReplica, type Replica } from '../support/replica.js';

/**
 * Live sync end to end (contract §3.2): the real server and the real CLI against a fake of Google's
 * documented endpoints on loopback. Nothing here leaves this machine.
 */

const PUSH_TOKEN = 'push-0123456789abcdef-NEVER-PRINT';
const SECRETS = [GOOGLE_CLIENT.secret, GOOGLE_REFRESH, PUSH_TOKEN, 'NEVER-PRINT'];
const OWN = path.join(PACKAGE_ROOT, 'test', 'fixtures', 'sources', 'own-business.json');

let dir: string;
const replicas: Replica[] = [];
const fakes: FakeGoogle[] = [];
beforeAll(async () => {
  await ensureBuilt();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-sync-e2e-'));
});
afterEach(async () => {
  await Promise.all(replicas.splice(0).map((r) => r.stop(5000)));
  await Promise.all(fakes.splice(0).map((f) => f.stop()));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function fakeGoogle(n: number): Promise<FakeGoogle> {
  const google = await new FakeGoogle().start();
  fakes.push(google);
  for (let i = 1; i <= n; i++) google.add(googleReview(i));
  return google;
}

/** vitest sets BASE_URL=/ in the environment the helpers pass on: empty means unset (contract §1 default). */
const CLEAN = { BASE_URL: '' };

function googleEnv(google: FakeGoogle, databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...CLEAN,
    DATABASE_URL: databaseUrl,
    DEMO_ON_EMPTY: 'false',
    LOG_LEVEL: 'info',
    GOOGLE_LOCATION,
    GOOGLE_CLIENT_ID: GOOGLE_CLIENT.id,
    GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT.secret,
    GOOGLE_REFRESH_TOKEN: GOOGLE_REFRESH,
    GOOGLE_API_URL: google.url,
    GOOGLE_TOKEN_URL: `${google.url}/token`,
    SYNC_INTERVAL_SECONDS: '5',
    ...extra,
  };
}

async function served(r: Replica): Promise<Map<string, { text: string; source: { platform: string } }>> {
  const doc = (await (await fetch(`${r.origin}/reviews.json`)).json()) as {
    reviews: { id: string; text: string; source: { platform: string } }[];
  };
  return new Map(doc.reviews.map((x) => [x.id, x]));
}

async function start(name: string, env: Record<string, string>): Promise<Replica> {
  const r = await startReplica(name, env, 60_000);
  replicas.push(r);
  return r;
}

const gid = (i: number) => `AbFvOqTest${String(i).padStart(5, '0')}`;
const pushBody = (type: string) =>
  JSON.stringify({
    message: { data: Buffer.from(JSON.stringify({ type, locationName: GOOGLE_LOCATION })).toString('base64'), messageId: '1' },
  });

function expectNoSecret(where: string, text: string) {
  for (const s of SECRETS) expect(text.includes(s), `${where} holds ${s.slice(0, 10)}…`).toBe(false);
}

describe('live sync with Google on SQLite (contract §3.2)', () => {
  it('first listing, push, edit, the deletion guard from the command line, a platform outage: all without a secret in any output', async () => {
    const google = await fakeGoogle(70);
    const db = `sqlite:${path.join(dir, 'one.sqlite')}`;
    expect((await runCli(['import', OWN], { ...CLEAN, DATABASE_URL: db, LOG_LEVEL: 'warn' })).code).toBe(0);
    const env = googleEnv(google, db, { GOOGLE_PUSH_TOKEN: PUSH_TOKEN, METRICS_TOKEN: 'metrics-token' });
    const server = await start('sync', env);
    // The start-up message marks the push endpoint as POST, without the token itself.
    expect(server.output()).toContain(`Google push  ${server.origin}/api/sync/google?token=<GOOGLE_PUSH_TOKEN>  (POST)`);

    await eventually('all 70 Google reviews served', 20_000, async () => (await served(server)).size === 72);
    expect((await served(server)).get('qcr-1')?.source.platform).toBe('website');

    google.add(googleReview(71, { comment: 'Brand new, pushed.' }));
    const push = await fetch(`${server.origin}/api/sync/google?token=${PUSH_TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: pushBody('NEW_REVIEW'),
    });
    expect(push.status).toBe(204);
    await eventually('the pushed review served within 10 s', 10_000, async () => (await served(server)).has(gid(71)), 100);
    google.add(googleReview(2, { comment: 'Edited on Google.', updateTime: '2026-02-02T00:00:00Z' }));
    await fetch(`${server.origin}/api/sync/google?token=${PUSH_TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: pushBody('UPDATED_REVIEW'),
    });
    await eventually(
      'the edit served within 10 s',
      10_000,
      async () => (await served(server)).get(gid(2))?.text === 'Edited on Google.',
      100,
    );

    // The command line waits for any run in progress, then reports its counts.
    const cli = await runCli(['sync', 'google'], { ...env, LOG_LEVEL: 'warn' });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/^google: 0 added, 0 updated, 71 unchanged, 0 deleted \(2 page\(s\), \d+ ms\)$/m);

    // 30 of 71 gone on Google: more than a fifth, so neither a scheduled run nor the CLI applies it...
    for (let i = 1; i <= 30; i++) google.reviews.delete(gid(i));
    const refused = await runCli(['sync', 'google'], { ...env, LOG_LEVEL: 'warn' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/would delete 30 of the 71 stored google reviews.*--allow-deletions/);
    expect((await served(server)).has(gid(1))).toBe(true);
    // ... until the operator says so.
    const allowed = await runCli(['sync', 'google', '--allow-deletions'], { ...env, LOG_LEVEL: 'warn' });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/30 deleted/);
    await eventually('the deletions served within 2 s', 3000, async () => !(await served(server)).has(gid(1)), 100);
    expect((await served(server)).has('qcr-1')).toBe(true);

    const metrics = await (await fetch(`${server.origin}/metrics`, { headers: { authorization: 'Bearer metrics-token' } })).text();
    expect(metrics).toMatch(/^review_data_sync_runs_total\{source="google",outcome="success"\} \d+$/m);
    expect(metrics).toMatch(/^review_data_sync_last_success_timestamp_seconds\{source="google"\} \d+/m);

    // Google down: runs fail, the stale reviews are still served and the service is ready.
    const before = await served(server);
    await google.stop();
    await eventually('a failed run logged', 20_000, async () => server.output().includes('sync google failed, nothing was changed'));
    expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);
    expect((await served(server)).size).toBe(before.size);

    const exported = await runCli(['export', '--all'], { ...CLEAN, DATABASE_URL: db, LOG_LEVEL: 'warn' });
    for (const [where, text] of [
      ['server output', server.output()],
      ['sync output', cli.stdout + cli.stderr + refused.stdout + refused.stderr + allowed.stdout + allowed.stderr],
      ['export --all', exported.stdout + exported.stderr],
      ['metrics', metrics],
    ] as const)
      expectNoSecret(where, text);
  }, 120_000);

  it('a run killed mid-listing (kill -9) loses and half-writes nothing; the claim lapses and the next run completes', async () => {
    const google = await fakeGoogle(120);
    const db = `sqlite:${path.join(dir, 'kill.sqlite')}`;
    // An empty database with a platform connected gets no demo: only the platform's reviews are served.
    const env = googleEnv(google, db, { DEMO_ON_EMPTY: 'true' });
    let server = await start('before', env);
    await eventually('120 served', 20_000, async () => (await served(server)).size === 120);
    expect(server.output()).not.toContain('loaded the demo');
    const exportBefore = await runCli(['export', '--all'], { ...CLEAN, DATABASE_URL: db, LOG_LEVEL: 'warn' });

    google.reviews.delete(gid(1));
    google.add(googleReview(200));
    google.pageDelayMs = 4000;
    const asked = google.lists().length;
    // Wait for a run that has fetched page 1 and is waiting on page 2, then kill the server.
    await eventually('a run in the middle of its listing', 20_000, async () =>
      google
        .lists()
        .slice(asked)
        .some((e) => e.query.pageToken),
    );
    await server.kill9();
    const exportAfter = await runCli(['export', '--all'], { ...CLEAN, DATABASE_URL: db, LOG_LEVEL: 'warn' });
    expect(exportAfter.stdout).toBe(exportBefore.stdout);

    google.pageDelayMs = 0;
    server = await start('after', env);
    // The dead process's claim lapses within its lease (10 s for a 5 s interval); then a run completes.
    await eventually('the listing applied after the restart', 30_000, async () => {
      const now = await served(server);
      return now.has(gid(200)) && !now.has(gid(1));
    });
  }, 120_000);

  it('connect google: the consent URL, the loopback redirect, the code exchanged with PKCE, the refresh token stored for sync', async () => {
    const google = await fakeGoogle(5);
    const file = path.join(dir, 'connect.sqlite');
    const env = {
      ...process.env,
      ...CLEAN,
      DATABASE_URL: `sqlite:${file}`,
      LOG_LEVEL: 'warn',
      GOOGLE_CLIENT_ID: GOOGLE_CLIENT.id,
      GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT.secret,
      GOOGLE_TOKEN_URL: `${google.url}/token`,
      GOOGLE_AUTH_URL: `${google.url}/auth`,
      GOOGLE_ACCOUNTS_API_URL: google.url,
      GOOGLE_BUSINESS_INFO_API_URL: google.url,
    };
    const child = spawn(process.execPath, [CLI, 'connect', 'google'], { cwd: PACKAGE_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const consent = new URL(await eventually('the consent URL printed', 20_000, async () => /^\s+(http\S+\/auth\?\S+)$/m.exec(out)?.[1]));
    const q = consent.searchParams;
    expect(Object.fromEntries([...q].filter(([k]) => !['state', 'code_challenge', 'redirect_uri'].includes(k)))).toEqual({
      client_id: GOOGLE_CLIENT.id,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/business.manage',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge_method: 'S256',
    });
    const redirect = q.get('redirect_uri')!;
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    // What Google does once the owner consents: remember the code with its challenge, send the browser back.
    google.codes.set('code-123', { challenge: q.get('code_challenge')!, redirectUri: redirect });
    const wrongState = await fetch(`${redirect}?code=code-123&state=forged`);
    expect(wrongState.status).toBe(400);
    const back = await fetch(`${redirect}?code=code-123&state=${q.get('state')}`);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('Permission received');
    expect(await exit).toBe(0);
    expect(out).toMatch(/Connected: the refresh token is stored in/);
    // It lists the locations the account manages, to copy into GOOGLE_LOCATION.
    expect(out).toContain(`  ${GOOGLE_LOCATION}  Test Plumbing, Main St`);
    expectNoSecret('connect output', out);
    expect((await fs.stat(file)).mode & 0o077).toBe(0);
    // A backup of it holds the token too, so it is as private.
    const copy = path.join(dir, 'connect-backup.sqlite');
    const backup = await runCli(['backup', copy], env as Record<string, string>);
    expect(backup.code, backup.stderr).toBe(0);
    expect((await fs.stat(copy)).mode & 0o077).toBe(0);

    // Before Google approves the project, listing locations fails, said plainly; --locations lists them later.
    google.approved = false;
    const early = await runCli(['connect', 'google', '--locations'], env as Record<string, string>);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(
      /could not list the account's locations \(the Google accounts list answered HTTP 429 \(3 tries\)\)\. Google answers these only once it has approved/,
    );
    google.approved = true;
    const later = await runCli(['connect', 'google', '--locations'], env as Record<string, string>);
    expect(later.stdout).toContain(`  ${GOOGLE_LOCATION}  Test Plumbing, Main St`);

    // Sync now works with the stored token alone.
    const { GOOGLE_AUTH_URL: _a, ...syncEnv } = env;
    const run = await runCli(['sync', 'google'], { ...(syncEnv as Record<string, string>), GOOGLE_LOCATION, GOOGLE_API_URL: google.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^google: 5 added/m);
    expect(new URLSearchParams(google.tokenRequests().at(-1)!.body).get('refresh_token')).toBe(GOOGLE_REFRESH);
  }, 60_000);

  it('an unconfigured platform, a bad setting: one line saying what to set, exit 2', async () => {
    const db = `sqlite:${path.join(dir, 'none.sqlite')}`;
    const none = await runCli(['sync', 'google'], { ...CLEAN, DATABASE_URL: db, LOG_LEVEL: 'warn' });
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toMatch(
      /^review-data sync: google is not configured: set GOOGLE_LOCATION, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET in the environment of this command too \(README, "Keep in step with Google"\)$/,
    );
    const half = await runCli(['serve'], { ...CLEAN, DATABASE_URL: db, GOOGLE_LOCATION, LOG_LEVEL: 'warn', PORT: '0' });
    expect(half.code).toBe(2);
    expect(half.stderr).toMatch(/GOOGLE_CLIENT_ID \(--google-client-id\): is required when GOOGLE_LOCATION is set/);
    const status = await runCli(['sync', 'status'], {
      ...CLEAN,
      DATABASE_URL: db,
      GOOGLE_LOCATION,
      GOOGLE_CLIENT_ID: 'a',
      GOOGLE_CLIENT_SECRET: 'b',
    });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toBe(
      'google     configured; never synced\ntrustpilot not configured (set TRUSTPILOT_BUSINESS_UNIT_ID, TRUSTPILOT_API_KEY); never synced\n',
    );
    const typo = await runCli(['sync', 'gogle'], { ...CLEAN, DATABASE_URL: db });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/did you mean 'google'\?/);
    const http = await runCli(['sync', 'google'], {
      ...CLEAN,
      DATABASE_URL: db,
      GOOGLE_LOCATION,
      GOOGLE_CLIENT_ID: 'a',
      GOOGLE_CLIENT_SECRET: 'b',
      GOOGLE_API_URL: 'http://example.com',
    });
    expect(http.code).toBe(2);
    expect(http.stderr).toMatch(
      /GOOGLE_API_URL .*https: URL such as https:\/\/mybusiness\.googleapis\.com \(http: only on a loopback address/,
    );
    // Not a URL at all, or a public name made to look like a loopback address: the same one line, no stack.
    for (const url of ['mybusiness.googleapis.com', 'http://127.0.0.1.nip.io/token']) {
      const bad = await runCli(['sync', 'google'], {
        ...CLEAN,
        DATABASE_URL: db,
        GOOGLE_LOCATION,
        GOOGLE_CLIENT_ID: 'a',
        GOOGLE_CLIENT_SECRET: 'b',
        GOOGLE_TOKEN_URL: url,
      });
      expect(bad.code, url).toBe(2);
      expect(bad.stderr, url).toMatch(/GOOGLE_TOKEN_URL .*must be an https: URL/);
      expect(bad.stderr, url).not.toMatch(/ at /);
    }
  }, 60_000);
});

await describePostgres('live sync across replicas on PostgreSQL (contract §3.2)', ({ freshDatabase }) => {
  it('two replicas run each interval’s sync once between them, and a push on either is published by both', async () => {
    const google = await fakeGoogle(60);
    const db = await freshDatabase();
    expect((await runCli(['import', OWN], { ...CLEAN, DATABASE_URL: db.url, LOG_LEVEL: 'warn' })).code).toBe(0);
    const env = googleEnv(google, db.url, { GOOGLE_PUSH_TOKEN: PUSH_TOKEN });
    const [a, b] = await Promise.all([start('a', env), start('b', env)]);
    await eventually('both replicas serve the listing', 30_000, async () => (await served(a)).size === 62 && (await served(b)).size === 62);

    // Count complete listings (their first page) over 16 s: one start-up run, then one every 5 s.
    const firstPages = () => google.lists().filter((e) => !e.query.pageToken && e.status === 200);
    const from = firstPages().length;
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 16_000));
    const window = firstPages().slice(from);
    const expected = (Date.now() - t0) / 5000;
    expect(window.length, `${window.length} runs in ${Date.now() - t0} ms`).toBeGreaterThanOrEqual(Math.floor(expected) - 1);
    // Each interval once between the two: no two runs start closer than an interval (less the 1 s the
    // replicas take between asks), whichever replica ran them.
    const starts = window.map((e) => e.at);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(Math.min(...gaps), `gaps ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(4000);

    google.add(googleReview(61, { comment: 'Pushed to replica b.' }));
    const push = await fetch(`${b.origin}/api/sync/google?token=${PUSH_TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: pushBody('NEW_REVIEW'),
    });
    expect(push.status).toBe(204);
    await eventually(
      'both replicas serve the pushed review within 10 s',
      10_000,
      async () => (await served(a)).has(gid(61)) && (await served(b)).has(gid(61)),
      100,
    );
    for (const r of [a, b]) expectNoSecret(`replica ${r.name}`, r.output());
  }, 120_000);
});
