import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureImportFile } from '../support/fixture.js';
import { ensureBuilt } from '../support/build.js';
import { retainNative } from '../../src/storage/sqlite-statements.js';
import { cliEnv, freePort, runCli, startServer, stopAll, type CliResult, type ServerProcess } from './processes.js';

/** A pragma's value through a statement kept from the collector (on Node 24 better-sqlite3 12 must never lose one to it). */
const pragmaValue = (db: SqliteDatabase.Database, pragma: string): unknown =>
  retainNative(db.prepare(`PRAGMA ${pragma}`))
    .pluck()
    .get();

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

  it('a file that is not a SQLite database names the path, no stack trace', async () => {
    const file = path.join(tmp, 'not-sqlite.db');
    await fs.writeFile(file, Buffer.alloc(64 * 1024, 0x5a));
    const r = await runCli(['serve'], { ...env, PORT: String(await freePort()), DATABASE_URL: `sqlite:${file}` });
    expectOneLine(r, /not-sqlite\.db.*is not a SQLite database/);
  });

  it('a damaged database names the path and says to restore a backup, wherever the damage is found', async () => {
    const source = await writeFixtureImportFile(path.join(tmp, 'damaged-import.json'));
    // The pages of the reviews' rows only: the file opens and migrates, the first snapshot meets the damage.
    // Then every page after the first: the schema itself is unreadable.
    const damage = {
      rows: (db: SqliteDatabase.Database) =>
        retainNative(db.prepare<[], { pageno: number }>("select pageno from dbstat where name = 'reviews' and pagetype = 'leaf'"))
          .all()
          .map((p) => p.pageno),
      schema: (db: SqliteDatabase.Database) => {
        const count = pragmaValue(db, 'page_count') as number;
        return Array.from({ length: count - 1 }, (_, i) => i + 2);
      },
    };
    for (const [name, pagesOf] of Object.entries(damage)) {
      const file = path.join(tmp, `damaged-${name}.db`);
      expect((await runCli(['import', source], { ...env, DATABASE_URL: `sqlite:${file}` })).code).toBe(0);
      const db = retainNative(new SqliteDatabase(file));
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const pageSize = pragmaValue(db, 'page_size') as number;
      const pages = pagesOf(db);
      db.close();
      expect(pages.length).toBeGreaterThan(0);
      const handle = await fs.open(file, 'r+');
      for (const page of pages) await handle.write(Buffer.alloc(pageSize, 0x5a), 0, pageSize, (page - 1) * pageSize);
      await handle.close();
      const r = await runCli(['serve'], { ...env, PORT: String(await freePort()), DATABASE_URL: `sqlite:${file}` });
      expectOneLine(r, new RegExp(`damaged-${name}\\.db.*is damaged.*restore it from a backup`));
    }
  });

  it('a zero-byte database file is refused, not filled with the demo', async () => {
    const file = path.join(tmp, 'emptied.db');
    await fs.writeFile(file, '');
    const r = await runCli(['serve'], { ...env, PORT: String(await freePort()), DATABASE_URL: `sqlite:${file}`, DEMO_ON_EMPTY: 'true' });
    expectOneLine(r, /emptied\.db.*empty file \(0 bytes\).*restore it from a backup.*delete the file/);
    expect((await fs.stat(file)).size).toBe(0);
  });

  it('a missing directory is named, not created', async () => {
    const missing = path.join(tmp, 'no-such-dir', 'deeper');
    const r = await runCli(['serve'], { ...env, PORT: String(await freePort()), DATABASE_URL: `sqlite:${missing}/reviews.db` });
    expectOneLine(r, /no-such-dir.*does not exist/);
    await expect(fs.stat(path.join(tmp, 'no-such-dir'))).rejects.toThrow();
  });
});

/** Another process that takes SQLite's write lock on `file`, as an import does, and commits after `holdMs`. */
function holdWriteLock(file: string, holdMs: number): Promise<void> {
  const code = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)});
    d.exec('BEGIN IMMEDIATE'); d.prepare('update data_version set version = version + 1 where singleton = 1').run();
    console.log('locked'); setTimeout(() => { d.exec('COMMIT'); d.close(); }, ${holdMs});`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('error', reject);
  });
}

describe('operations of a running server (contract §8)', () => {
  it("/readyz stays 200 while a write of the server waits for another process's lock", async () => {
    await holdWriteLock(path.join(tmp, 'reviews.db'), 6000);
    // A legacy MCP session is a row the server writes: the write waits for the lock.
    let written = false;
    const initialize = fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ops-test', version: '1' } },
      }),
    }).finally(() => (written = true));
    await new Promise((r) => setTimeout(r, 500));
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status, await ready.text()).toBe(200);
    // Answered while the session's write still waited for the lock, not after it.
    expect(written).toBe(false);
    const session = await initialize;
    expect(session.status).toBe(200);
    expect(session.headers.get('mcp-session-id')).toBeTruthy();
  });

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
    const db = retainNative(new SqliteDatabase(copy, { readonly: true }));
    try {
      expect(pragmaValue(db, 'integrity_check')).toBe('ok');
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

  it('backup with a DATABASE_URL naming no file fails in one line and creates nothing', async () => {
    const missing = path.join(tmp, 'no-such.db');
    const copy = path.join(tmp, 'of-nothing.db');
    const r = await runCli(['backup', copy], { ...env, DATABASE_URL: `sqlite:${missing}` });
    expectOneLine(r, /no-such\.db.*does not exist.*DATABASE_URL/);
    await expect(fs.stat(missing)).rejects.toThrow();
    await expect(fs.stat(copy)).rejects.toThrow();
  });

  it('backup replaces a partial copy that a killed backup left behind, and says so', async () => {
    const copy = path.join(tmp, 'after-crash.db');
    // Left by earlier versions (FILE.partial) and by a backup whose process is gone (FILE.partial-PID).
    const stale = [`${copy}.partial`, `${copy}.partial-999999999`, `${copy}.partial-999999999-journal`];
    for (const f of stale) await fs.writeFile(f, 'half a copy');
    const r = await runCli(['backup', copy], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    for (const f of stale) {
      expect(r.stderr).toContain(`removed ${f}, left by a backup that did not finish`);
      await expect(fs.stat(f)).rejects.toThrow();
    }
    const db = retainNative(new SqliteDatabase(copy, { readonly: true }));
    try {
      expect(pragmaValue(db, 'integrity_check')).toBe('ok');
    } finally {
      db.close();
    }
    expect((await fs.readdir(tmp)).filter((f) => f.startsWith('after-crash.db.'))).toEqual([]);
  });

  it('backup on PostgreSQL points to pg_dump', async () => {
    const r = await runCli(['backup', path.join(tmp, 'pg.dump')], { ...env, DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pg_dump/);
  });
});
