import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/cli/logger.js';
import { loadConfig } from '../../src/config.js';
import { collectGarbage } from '../../src/ops/idle-memory.js';
import { createLiveShapes } from '../../src/ops/live-shapes.js';
import { createServer } from '../../src/server.js';

describe('live shapes (one object of each hot kind kept through collections)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
  });

  it("holds one of Node's nextTick entries from the start", () => {
    expect(createLiveShapes().kinds()).toEqual(['nextTick entry']);
  });

  it('keeps the first object of a kind through a full collection, and only the first', async () => {
    const shapes = createLiveShapes();
    const [first, second] = (() => {
      const a = { kind: 'first' };
      const b = { kind: 'second' };
      shapes.keep('example', a);
      shapes.keep('example', b);
      return [new WeakRef(a), new WeakRef(b)];
    })();
    // WeakRef targets are kept until the current job ends.
    await new Promise((r) => setImmediate(r));
    await collectGarbage();
    expect(first.deref()).toEqual({ kind: 'first' });
    expect(second.deref()).toBeUndefined();
    expect(shapes.kinds()).toEqual(['nextTick entry', 'example']);
  });

  it("the server keeps its first node:http request and response (the 304's objects)", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-shapes-'));
    dirs.push(dir);
    const config = loadConfig({
      DATABASE_URL: `sqlite:${path.join(dir, 'reviews.db')}`,
      SNAPSHOT_POLL_MS: '0',
      PORT: '0',
      HOST: '127.0.0.1',
    });
    const server = await createServer(config, createLogger('silent'));
    try {
      // Fastify's inject never reaches node:http's server: only a real connection does.
      await server.app.inject({ method: 'GET', url: '/reviews.json' });
      expect(server.liveShapes.kinds()).toEqual(['nextTick entry']);
      const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${address}/reviews.json`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      expect(server.liveShapes.kinds()).toEqual(['nextTick entry', 'http request', 'http response']);
    } finally {
      await server.close();
    }
  }, 60_000);
});
