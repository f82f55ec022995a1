import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionsCommand } from '../../src/cli/commands/subscriptions.js';
import type { ReviewStore } from '../../src/domain/ports.js';
import { importFiles } from '../../src/import/import-files.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { CLI, ensureBuilt } from '../support/build.js';
import { freePort, review, seedDataset, type TestReview } from './support/test-hub-server.js';
import { makeTestPki } from './support/test-pki.js';
import { TestSubscriber } from './support/test-subscriber.js';

// The durable outbox across a kill -9 of a real server process (contract §6: a crash loses nothing;
// after a restart every active subscriber gets the latest content of a change made before it).

let dir: string;
let sub: TestSubscriber;
let env: NodeJS.ProcessEnv;
let baseUrl: string;
let server: ChildProcess | null = null;
let n = 0;
let database: DatabaseHandle;
let store: ReviewStore;

/** `review-data subscriptions ...`, run in this process (a CLI start-up costs seconds on a busy machine). */
async function cli(...args: string[]): Promise<string> {
  let out = '';
  const stdout = new Writable({ write: (chunk: Buffer, _e, done) => ((out += chunk.toString()), done()) });
  const code = await subscriptionsCommand.run(args, { stdout, stderr: process.stderr, env, cwd: dir });
  expect(code).toBe(0);
  return out;
}

/** Another process's import, through the real import path, into the server's database file. */
async function importReviews(records: TestReview[]): Promise<void> {
  const file = path.join(dir, `change-${++n}.json`);
  fs.writeFileSync(file, JSON.stringify(records));
  const outcome = await importFiles(store, { files: [file], replace: false, assumeVerified: false });
  expect(outcome.ok).toBe(true);
}

async function startServer(): Promise<void> {
  const log = fs.openSync(path.join(dir, 'server.log'), 'a');
  server = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/reviews.json`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${fs.readFileSync(path.join(dir, 'server.log'), 'utf8').slice(-2000)}`);
}

async function kill9(): Promise<void> {
  const child = server!;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  server = null;
}

const body = async (p: string) => Buffer.from(await (await fetch(`${baseUrl}${p}`)).arrayBuffer());

beforeAll(async () => {
  await ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'websub-crash-'));
  const pki = makeTestPki(dir);
  sub = await new TestSubscriber(pki).start();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: baseUrl,
    DATABASE_URL: `sqlite:${path.join(dir, 'reviews.db')}`,
    DEMO_ON_EMPTY: 'false',
    SNAPSHOT_POLL_MS: '200',
    LOG_LEVEL: 'info',
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    WEBSUB_CA_FILE: pki.caFile,
    WEBSUB_RETRY_DELAYS: '1,1',
    // claims last the timeout plus 5 s: a dead worker's claim is taken over quickly
    WEBSUB_TIMEOUT_MS: '1500',
  };
  database = await openDatabase(env.DATABASE_URL!);
  store = createReviewStore(database.db);
  await importFiles(store, { files: [seedDataset(dir)], replace: false, assumeVerified: false });
  await startServer();
}, 240_000);

afterAll(async () => {
  if (server) await kill9();
  await sub?.stop();
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('crash safety', () => {
  it('a delivery in flight when the server is killed -9 is delivered, with the newest content, after a restart', async () => {
    const callback = sub.callback('crash', { hold: true });
    const res = await fetch(`${baseUrl}/api/websub/hub`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': `${baseUrl}/reviews.json`, 'hub.callback': callback }).toString(),
    });
    expect(res.status).toBe(202);
    expect(await sub.waitFor('crash', () => sub.verifications('crash', 'subscribe').length === 1)).toBe(true);
    await expect.poll(async () => JSON.parse(await cli('list', '--json')).length, { timeout: 5000 }).toBe(1);

    await importReviews([review(200, { date: '2025-07-01', text: 'Change A' })]);
    // the server picks the change up and starts the POST; the subscriber holds it unanswered
    expect(await sub.waitFor('crash', () => sub.notifications('crash').length === 1, 10_000)).toBe(true);
    await kill9();
    await importReviews([review(201, { date: '2025-07-02', text: 'Change B, made while the server was down' })]);
    sub.set('crash', { hold: false });
    sub.release();

    await startServer();
    expect(await sub.waitFor('crash', () => sub.notifications('crash').length >= 2, 20_000)).toBe(true);
    const latest = sub.notifications('crash').at(-1)!;
    expect(latest.body.toString()).toContain('Change B');
    expect(latest.body.equals(await body('/reviews.json'))).toBe(true);
  }, 60_000);

  it('a change made while the server is down is delivered after it starts', async () => {
    await new Promise((r) => setTimeout(r, 500)); // let the previous delivery be recorded as done
    const before = sub.notifications('crash').length;
    await kill9();
    await importReviews([review(202, { date: '2025-07-03', text: 'Change C' })]);
    await startServer();
    expect(await sub.waitFor('crash', () => sub.notifications('crash').length === before + 1, 10_000)).toBe(true);
    expect(
      sub
        .notifications('crash')
        .at(-1)!
        .body.equals(await body('/reviews.json')),
    ).toBe(true);
  }, 60_000);

  it('the operator lists and removes subscriptions; a removed one gets nothing more', async () => {
    const list = JSON.parse(await cli('list', '--json')) as { id: string; callback: string; failures: number }[];
    expect(list).toHaveLength(1);
    expect(list[0]!.callback).toContain('/cb/crash');
    expect(await cli()).toContain(list[0]!.id);
    expect(await cli('remove', list[0]!.id)).toContain('removed');
    const before = sub.notifications('crash').length;
    await importReviews([review(203, { date: '2025-07-04', text: 'Change D' })]);
    await expect.poll(async () => (await body('/reviews.json')).toString().includes('Change D'), { timeout: 5000 }).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    expect(sub.notifications('crash')).toHaveLength(before);
    expect(await cli('list')).toContain('no subscriptions');
  }, 60_000);
});
