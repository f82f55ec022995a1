import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/cli/logger.js';
import { loadConfig } from '../../src/config.js';
import { BusinessSchema } from '../../src/domain/business.js';
import { getInsights } from '../../src/mcp/tools.js';
import { createServer, type RunningServer } from '../../src/server.js';
import { siteContext } from '../../src/site/site-context.js';
import type { InsightsRenderer } from '../../src/snapshot/renderers/insights.js';
import type * as RenderersModule from '../../src/snapshot/renderers/index.js';
import type { Renderers } from '../../src/snapshot/renderers/index.js';
import { openDatabase } from '../../src/storage/connect.js';
import { createDocumentCacheStore } from '../../src/storage/document-cache-store.js';
import { describePostgres } from '../support/postgres-suite.js';

// Each server's insights renderer, to read how many renderings its worker computed.
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

const business = BusinessSchema.parse({ id: 'b', name: 'B', technicians: [{ id: 'ann', name: 'Ann Lee', aliases: ['Ann'] }] });
const review = (id: string, text: string) => ({
  id,
  date: '2024-05-01',
  rating: 4,
  title: null,
  text,
  language: 'en',
  author: { name: 'X.', location: null },
  source: { platform: 'google', url: null },
  verified: true,
  hidden: false,
  mention_tags: { technicians: [], services: [], service_areas: [] },
  response: null,
});

async function start(url: string): Promise<{ server: RunningServer; insights: InsightsRenderer }> {
  const config = loadConfig({ DATABASE_URL: url, DEMO_ON_EMPTY: 'false', SNAPSHOT_POLL_MS: '0', BASE_URL: 'http://rds.test' });
  const server = await createServer(config, createLogger('silent'));
  const insights = created.at(-1)!.list.find((r) => r.name === 'insights.json') as InsightsRenderer;
  return { server, insights };
}

/** Waits until the current snapshot holds insights rendered from its own data version. */
async function landed(server: RunningServer): Promise<void> {
  for (;;) {
    const s = server.snapshots.current();
    if (s.documentVersions.get('insights.json') === s.version) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function get(server: RunningServer) {
  const res = await server.app.inject({ method: 'GET', url: '/insights.json' });
  return { status: res.statusCode, etag: res.headers.etag, lastModified: res.headers['last-modified'], body: res.body };
}

function describeRestart(name: string, fresh: () => Promise<string>): void {
  it(`${name}: a restart serves the stored insights at once, recomputes them only when the inputs changed`, async () => {
    const url = await fresh();
    // The first process: data, then its insights land and are stored.
    const one = await start(url);
    await one.server.store.applyImport({
      business,
      reviews: [review('a', 'Ann arrived on time.'), review('b', 'Late and rude.')],
      replace: false,
    });
    await one.server.snapshots.refresh();
    await landed(one.server);
    const first = await get(one.server);
    expect(first.status).toBe(200);
    await one.server.close();

    // The second process: the stored document from its first snapshot, before any rendering; the worker,
    // given equal inputs, never computes.
    const two = await start(url);
    // Held by the first snapshot itself: no request waits for a rendering (no cold-start wait, no 503).
    expect(two.server.snapshots.current().missing.size).toBe(0);
    expect(two.server.snapshots.current().documents.get('insights.json')?.etag).toBe(first.etag);
    const atOnce = await get(two.server);
    expect(atOnce).toEqual(first);
    // MCP's get_insights answers from the stored bytes too, before the process renders anything.
    const whole = getInsights({ include_review_ids: true, section: 'summary' }, two.server.snapshots.current());
    expect(whole).toMatchObject({ ok: true, json: JSON.stringify({ summary: (JSON.parse(first.body) as { summary: unknown }).summary }) });
    // And the pages: their insights come from the same stored bytes, so they are complete at once.
    const pages = siteContext(two.server.snapshots.current());
    expect(pages.complete).toBe(true);
    expect(pages.insights).toEqual(JSON.parse(first.body));
    await landed(two.server);
    expect(two.insights.runs()).toMatchObject({ computed: 0, unchanged: 1, workers: 0 });
    expect(await get(two.server)).toEqual(first);

    // Changed inputs: the stored document is served until the new one lands, then replaced and stored.
    await two.server.store.applyImport({ reviews: [review('c', 'Ann fixed the leak fast.')], replace: false });
    await two.server.snapshots.refresh();
    expect((await get(two.server)).etag).toBe(first.etag);
    await landed(two.server);
    // The new worker reads the first process's analyses back from the database: one review is analysed.
    expect(two.insights.runs()).toMatchObject({ computed: 1, unchanged: 1, workers: 1, analyzed: 1, restored: 2 });
    const second = await get(two.server);
    expect(second.etag).not.toBe(first.etag);
    expect(JSON.parse(second.body)).toMatchObject({ review_count: 3 });
    expect(Date.parse(second.lastModified!)).toBeGreaterThanOrEqual(Date.parse(first.lastModified!));
    await two.server.close();

    const handle = await openDatabase(url);
    expect(JSON.parse((await createDocumentCacheStore(handle.db).read('insights.json'))!.body)).toMatchObject({
      review_count: 3,
    });
    await handle.close();

    const three = await start(url);
    expect(await get(three.server)).toEqual(second);
    await three.server.close();
  }, 180_000);
}

describe('insights across restarts', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true }))));
  describeRestart('SQLite', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-insights-'));
    dirs.push(dir);
    return `sqlite:${path.join(dir, 'reviews.db')}`;
  });
});

await describePostgres('insights across restarts, PostgreSQL', ({ freshDatabase }) => {
  describeRestart('PostgreSQL', async () => (await freshDatabase()).url);
});
