import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { importCommand } from '../../src/cli/commands/import.js';
import { createLogger } from '../../src/cli/logger.js';
import { loadConfig } from '../../src/config.js';
import { createServer } from '../../src/server.js';
import type { InsightsRenderer } from '../../src/snapshot/renderers/insights.js';
import type * as RenderersModule from '../../src/snapshot/renderers/index.js';
import type { Renderers } from '../../src/snapshot/renderers/index.js';
import { writeFixtureImportFile } from '../support/fixture.js';

// The server's insights renderer, to read whether it computed anything.
const created = vi.hoisted(() => [] as Renderers[]);
vi.mock('../../src/snapshot/renderers/index.js', async (importOriginal) => {
  const m = await importOriginal<typeof RenderersModule>();
  return {
    ...m,
    createDocumentRenderers: (...args: Parameters<typeof m.createDocumentRenderers>) => {
      const r = m.createDocumentRenderers(...args);
      created.push(r);
      return r;
    },
  };
});

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await importCommand.run(args, { stdout, stderr, env, cwd: process.cwd() });
  return { code, stdout: out, stderr: err };
}

describe('a first import stores the insights of what it imported', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true }))));

  it('a server started right after serves /insights.json at once (no 503) and computes nothing', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-prime-'));
    dirs.push(dir);
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'reviews.db')}`, DEMO_ON_EMPTY: 'false', BASE_URL: 'http://rds.test' };
    const imported = await cli([await writeFixtureImportFile(path.join(dir, 'fixture.json'))], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/insights computed and stored/);

    const server = await createServer(loadConfig({ ...env, SNAPSHOT_POLL_MS: '0' }), createLogger('silent'));
    try {
      const insights = created.at(-1)!.list.find((r) => r.name === 'insights.json') as InsightsRenderer;
      // The first snapshot holds the stored document: nothing for a request to wait for.
      expect(server.snapshots.current().missing.size).toBe(0);
      const res = await server.app.inject({ method: 'GET', url: '/insights.json' });
      expect(res.statusCode).toBe(200);
      await vi.waitFor(() => expect(insights.runs().unchanged).toBe(1), { timeout: 30_000 });
      expect(insights.runs()).toMatchObject({ computed: 0, workers: 0 });
    } finally {
      await server.close();
    }

    // A later import, with the document stored, leaves the rendering to the server.
    const again = await cli([await writeFixtureImportFile(path.join(dir, 'fixture.json'))], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/insights computed/);
  }, 180_000);
});
