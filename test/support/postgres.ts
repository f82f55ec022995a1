import crypto from 'node:crypto';
import os from 'node:os';
import pg from 'pg';

/**
 * Finding a PostgreSQL server for tests and giving each test run databases of its own.
 *
 * The server comes from DATABASE_URL_TEST or, when unset, a local server on 127.0.0.1:5432 reached with
 * trust auth as `postgres` (then as the OS user). Tests never touch the data of the database they
 * connect to: they create `rds_test_<random>` databases and drop them afterwards.
 */

export type PostgresProbe = { ok: true; adminUrl: string } | { ok: false; reason: string };

const CONNECT_TIMEOUT_MS = 2000;

function candidates(env: NodeJS.ProcessEnv): string[] {
  if (env.DATABASE_URL_TEST) return [env.DATABASE_URL_TEST];
  const user = env.USER ?? os.userInfo().username;
  const list = ['postgres://postgres@127.0.0.1:5432/postgres', `postgres://${encodeURIComponent(user)}@127.0.0.1:5432/postgres`];
  return [...new Set(list)];
}

async function tryConnect(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

let probed: Promise<PostgresProbe> | null = null;

/** Looks for a reachable server once per test file. */
export function probePostgres(env: NodeJS.ProcessEnv = process.env): Promise<PostgresProbe> {
  probed ??= (async () => {
    const failures: string[] = [];
    for (const url of candidates(env)) {
      const problem = await tryConnect(url);
      if (problem === null) return { ok: true, adminUrl: url };
      failures.push(`${redact(url)}: ${problem}`);
    }
    return { ok: false, reason: failures.join('; ') };
  })();
  return probed;
}

/** True when an absent server must fail the run instead of skipping it (CI runs must test PostgreSQL). */
export function postgresRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' || env.CI === '1';
}

export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/** The admin URL with another database name (the same server, role and options). */
export function withDatabase(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export interface TestDatabase {
  name: string;
  url: string;
  /** Terminates every connection to the database, then drops it. Safe to call twice. */
  drop(): Promise<void>;
}

async function admin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Closes every session on `name` except the caller's: what a PostgreSQL restart does to a replica. */
export function terminateConnections(adminUrl: string, name: string): Promise<number> {
  return admin(adminUrl, async (c) => {
    const r = await c.query<{ n: string }>(
      'select count(pg_terminate_backend(pid))::text as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    return Number(r.rows[0]?.n ?? 0);
  });
}

/**
 * Creates a fresh, empty database. From template0: nobody connects to it, so concurrent test runs
 * (and other engineers connected to template1) cannot make CREATE DATABASE fail.
 */
export async function createTestDatabase(adminUrl: string): Promise<TestDatabase> {
  const name = `rds_test_${crypto.randomBytes(6).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`create database ${name} template template0 encoding 'UTF8'`));
  let dropped = false;
  return {
    name,
    url: withDatabase(adminUrl, name),
    async drop() {
      if (dropped) return;
      dropped = true;
      await admin(adminUrl, async (c) => {
        await c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
        // WITH (FORCE) (PostgreSQL 13+) also ends sessions that connected after the terminate above.
        await c.query(`drop database if exists ${name} with (force)`);
      });
    },
  };
}

/** The message a skipped PostgreSQL suite prints, so nobody mistakes a skip for a pass. */
export function skipMessage(suite: string, reason: string): string {
  return (
    `\n*** SKIPPED: ${suite} needs PostgreSQL and none is reachable (${reason}).\n` +
    `*** Set DATABASE_URL_TEST=postgres://user@host:port/db or run a server on 127.0.0.1:5432; with CI=true this is a failure.\n`
  );
}
