import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureImportFile } from '../support/fixture.js';
import { ensureBuilt } from '../support/build.js';
import { cliEnv, freePort, runCli, startServer, stopAll, type CliResult, type ServerProcess } from './processes.js';

/** Contract §8 with real processes: backup while serving, one log line per request, start-up failures. */
let tmp: string;
let env: NodeJS.ProcessEnv;
let server: ServerProcess;

beforeAll(async () => {
  await ensureBuilt();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'review-data-ops-'));
  env = cliEnv({ DATABASE_URL: `sqlite:${path.join(tmp, 'reviews.db')}`, LOG_LEVEL: 'info', SNAPSHOT_POLL_MS: '200' });
  const file = await writeFixtureImportFile(path.join(tmp, 'import.json'));
  expect((await runCli(['import', file], env)).code).toBe(0);
  server = await startServer(env);
}, 120_000);

afterAll(async () => {
  await stopAll();
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Lines a failed start printed that are not info/debug log records. */
function messageLines(r: CliResult): string[] {
  return `${r.stdout}\n${r.stderr}`
    .split('\n')
    .filter((l) => l.trim())
    .filter((l) => {
      try {
        return (JSON.parse(l) as { level: number }).level >= 40;
      } catch {
        return true;
      }
    });
}

function expectOneLine(r: CliResult, mention: RegExp): void {
  const lines = messageLines(r);
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(2);
  expect(lines, lines.join('\n')).toHaveLength(1);
  expect(lines[0]).toMatch(mention);
  expect(lines[0]).not.toMatch(/^\s+at /);
}

describe('start-up failures: one line, exit status 2 (contract §8)', () => {
  it('a port in use names the port and how to choose another', async () => {
    const port = new URL(server.url).port;
    const r = await runCli(['serve'], { ...env, PORT: port, HOST: '127.0.0.1' });
    expectOneLine(r, new RegExp(`port ${port} .*in use.*PORT=`));
  });

  it('a DATABASE_URL of another kind names the setting', async () => {
    const r = await runCli(['serve'], { ...env, PORT: String(await freePort()), DATABASE_URL: 'mysql://127.0.0.1/reviews' });
    expectOneLine(r, /DATABASE_URL.*mysql/);
  });

  it('an unopenable database path names the path', async () => {
    const plain = path.join(tmp, 'plain-file');
    await fs.writeFile(plain, 'not a directory\n');
    const r = await runCli(['serve'], { ...env, PORT: String(await freePort()), DATABASE_URL: `sqlite:${plain}/reviews.db` });
    expectOneLine(r, /plain-file.*DATABASE_URL/);
  });

  it('a missing directory is named, not created', async () => {
    const missing = path.join(tmp, 'no-such-dir', 'deeper');
    const r = await runCli(['serve'], { ...env, PORT: String(await freePort()), DATABASE_URL: `sqlite:${missing}/reviews.db` });
    expectOneLine(r, /no-such-dir.*does not exist/);
    await expect(fs.stat(path.join(tmp, 'no-such-dir'))).rejects.toThrow();
  });
});

describe('operations of a running server (contract §8)', () => {
  it('writes one log line per request, at info, naming the URL and status', async () => {
    const probe = `probe${Date.now().toString(36)}`;
    for (let i = 0; i < 3; i++) await fetch(`${server.url}/reviews.json?${probe}=${i}`);
    await fetch(`${server.url}/healthz`);
    const lines = server
      .output()
      .stderr.split('\n')
      .filter((l) => l.includes(probe));
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(JSON.parse(l)).toMatchObject({ level: 30, method: 'GET', status: 200 });
  });

  it('backup FILE while the server runs gives a copy that passes integrity_check and exports the same data', async () => {
    const copy = path.join(tmp, 'backup.db');
    const r = await runCli(['backup', copy], env);
    expect(r.code, r.stderr).toBe(0);
    const db = new SqliteDatabase(copy, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
    const live = await runCli(['export', '--all'], env);
    const fromCopy = await runCli(['export', '--all'], { ...env, DATABASE_URL: `sqlite:${copy}` });
    expect(fromCopy.code).toBe(0);
    expect(JSON.parse(fromCopy.stdout)).toEqual(JSON.parse(live.stdout));
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    // A second backup never overwrites the first.
    const again = await runCli(['backup', copy], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists/);
  });

  it('backup on PostgreSQL points to pg_dump', async () => {
    const r = await runCli(['backup', path.join(tmp, 'pg.dump')], { ...env, DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pg_dump/);
  });
});
