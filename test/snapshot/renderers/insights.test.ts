import fs from 'node:fs';
import os from 'node:os';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AnalysisCacheStore } from '../../../src/domain/ports.js';
import { BusinessSchema } from '../../../src/domain/business.js';
import { createServiceUrls } from '../../../src/domain/urls.js';
import { createRepresentation } from '../../../src/snapshot/rendered-document.js';
import { createInlineInsightsRenderer, renderSnapshot } from '../../support/renderers.js';
import { buildSnapshot, withDocument } from '../../../src/snapshot/snapshot.js';
import { insightsValue } from '../../../src/snapshot/insights-value.js';
import { BACKGROUND_NICE } from '../../../src/snapshot/renderers/background-priority.js';
import type { RenderInput, SlowRenderer } from '../../../src/snapshot/renderers/document-renderer.js';
import { createInsightsRenderer } from '../../../src/snapshot/renderers/insights.js';

const business = BusinessSchema.parse({ id: 'b', name: 'B', technicians: [{ id: 'ann', name: 'Ann Lee', aliases: ['Ann'] }] });
const review = (id: string, rating: number, text: string) => ({
  id,
  date: '2024-05-01',
  rating,
  title: null,
  text,
  language: 'en',
  author: { name: 'X.', location: null },
  source: { platform: 'google', url: null },
  verified: true,
  hidden: false,
  mention_tags: { technicians: [], services: [], service_areas: [] },
  response: null,
  updated_at: '2024-05-02T00:00:00Z',
});
const state = {
  business,
  businessUpdatedAt: '2024-05-01T00:00:00Z',
  reviews: [
    review('a', 5, 'Ann arrived on time and the price was fair.'),
    review('b', 1, 'They showed up 3 hours late and overcharged us.'),
  ],
  version: 1,
};
const urls = createServiceUrls('http://example.test');

describe('insights renderer', () => {
  const inWorker = createInsightsRenderer({ taxonomies: [] });
  const inline = createInlineInsightsRenderer();
  afterAll(() => inWorker.close());

  it('renders the same in a worker process as inline', async () => {
    const [a, b] = await Promise.all([renderSnapshot(state, urls, [inWorker]), renderSnapshot(state, urls, [inline])]);
    const [da, db] = [a.documents.get('insights.json'), b.documents.get('insights.json')];
    expect(da?.body.toString()).toBe(db?.body.toString());
    expect(da?.etag).toBe(db?.etag);
    const doc = JSON.parse(da!.body.toString()) as { review_count: number; generated_at: string };
    expect(doc.review_count).toBe(2);
    expect(insightsValue(a)).toEqual(doc);
    expect(a.missing.size).toBe(0);
  });
});

describe('insights renderer: unchanged inputs', () => {
  const renderers: ReturnType<typeof createInsightsRenderer>[] = [];
  afterAll(() => Promise.all(renderers.map((r) => r.close())));
  const open = (known?: () => { inputHash: string; body: string } | undefined) => {
    const r = createInsightsRenderer({ taxonomies: [], ...(known ? { known } : {}) });
    renderers.push(r);
    return r;
  };

  it('a fresh worker given the stored document answers equal inputs without computing, and computes changed ones', async () => {
    const first = open();
    const a = await renderSnapshot(state, urls, [first]);
    const { snapshot, slow } = await buildSnapshot(state, urls, [first], a);
    const [stored] = await Promise.all(slow);
    expect(first.runs()).toMatchObject({ computed: 1, unchanged: 1, workers: 1 });
    expect(stored?.inputHash).toMatch(/^[0-9a-f]{64}$/);
    expect(withDocument(snapshot, stored!).documents.get('insights.json')?.etag).toBe(a.documents.get('insights.json')?.etag);

    // The next process: only the stored body and hash survive.
    const body = a.documents.get('insights.json')!.body.toString();
    const second = open(() => ({ inputHash: stored!.inputHash!, body }));
    const b = await renderSnapshot({ ...state, version: 7 }, urls, [second]);
    // Equal inputs are decided on the main thread: no worker is started at all.
    expect(second.runs()).toMatchObject({ computed: 0, unchanged: 1, workers: 0 });
    expect(b.documents.get('insights.json')?.body.toString()).toBe(body);
    expect(insightsValue(b)).toEqual(JSON.parse(body));

    const changed = { ...state, version: 8, reviews: [...state.reviews, review('c', 4, 'Ann fixed the leak fast.')] };
    const c = await renderSnapshot(changed, urls, [second]);
    expect(second.runs()).toMatchObject({ computed: 1, unchanged: 1, workers: 1 });
    expect(insightsValue(c)?.review_count).toBe(3);
    // Two workers load the engine and models: minutes on a loaded two-core machine.
  }, 180_000);

  it('a stored document of other inputs (another hash) is recomputed', async () => {
    const r = open(() => ({ inputHash: '0'.repeat(64), body: '{"stale":true}' }));
    const out = await renderSnapshot(state, urls, [r]);
    expect(r.runs()).toMatchObject({ computed: 1, unchanged: 0 });
    expect(out.documents.get('insights.json')?.body.toString()).not.toContain('stale');
  }, 120_000);
});

describe('insights renderer: a worker that exits when idle', () => {
  /** The analysis cache port over a map, counting what is read and written. */
  const memoryStore = () => {
    const rows = new Map<string, { engine: string; body: string }>();
    const counts = { read: 0, written: 0 };
    const store: AnalysisCacheStore = {
      read: (keys) => {
        const found = keys.flatMap((key) => (rows.has(key) ? [{ key, body: rows.get(key)!.body }] : []));
        counts.read += found.length;
        return Promise.resolve(found);
      },
      write: (engine, analyses) => {
        for (const [key, row] of rows) if (row.engine !== engine) rows.delete(key);
        for (const a of analyses) rows.set(a.key, { engine, body: a.body });
        counts.written += analyses.length;
        return Promise.resolve();
      },
    };
    return { store, rows, counts };
  };
  const renderers: ReturnType<typeof createInsightsRenderer>[] = [];
  afterAll(() => Promise.all(renderers.map((r) => r.close())));

  it('a new worker reads the stored analyses back and analyses only the changed reviews, with the same document', async () => {
    const { store, rows, counts } = memoryStore();
    const r = createInsightsRenderer({ taxonomies: [], analyses: store, workerIdleMs: 20 });
    renderers.push(r);
    await renderSnapshot(state, urls, [r]);
    expect(r.runs()).toMatchObject({ computed: 1, workers: 1, analyzed: 2, restored: 0 });
    await vi.waitFor(() => expect(rows.size).toBe(2));

    // Idle past workerIdleMs: the worker is gone, and changed inputs start another one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const changed = { ...state, version: 2, reviews: [...state.reviews, review('c', 4, 'Ann fixed the leak fast.')] };
    const out = await renderSnapshot(changed, urls, [r]);
    expect(r.runs()).toMatchObject({ computed: 2, workers: 2, analyzed: 3, restored: 2 });
    expect(counts.read).toBe(2);
    await vi.waitFor(() => expect(rows.size).toBe(3));

    const inline = await renderSnapshot(changed, urls, [createInlineInsightsRenderer()]);
    expect(out.documents.get('insights.json')?.body.toString()).toBe(inline.documents.get('insights.json')?.body.toString());
  }, 180_000);

  it('a rendering still hashing its inputs when the renderer closes is abandoned: no worker starts after close', async () => {
    const r = createInsightsRenderer({ taxonomies: [] });
    const pending = renderSnapshot(state, urls, [r]);
    await r.close();
    await expect(pending).rejects.toThrow('closed');
    expect(r.runs().workers).toBe(0);
  });

  it('a worker with work to do stays: renderings in a row share one worker', async () => {
    const r = createInsightsRenderer({ taxonomies: [], workerIdleMs: 60_000 });
    renderers.push(r);
    await renderSnapshot(state, urls, [r]);
    await renderSnapshot({ ...state, version: 2, reviews: state.reviews.slice(0, 1) }, urls, [r]);
    expect(r.runs()).toMatchObject({ computed: 2, workers: 1, analyzed: 2 });
  }, 120_000);
});

describe('slow documents', () => {
  const slow = (body: string, gate: Promise<void>): SlowRenderer => ({
    kind: 'slow',
    name: 'slow.json',
    contentType: 'application/json',
    render: ({ view }) => gate.then(() => ({ body, lastModified: view.updatedAt })),
  });

  it('a new snapshot carries the previous document until its own lands; nothing older replaces it', async () => {
    const first = await renderSnapshot(state, urls, [slow('"v1"', Promise.resolve())]);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { snapshot: second, slow: landing } = await buildSnapshot({ ...state, version: 2 }, urls, [slow('"v2"', gate)], first);
    // Published at once, complete, with the previous rendering.
    expect(second.documents.get('slow.json')?.body.toString()).toBe('"v1"');
    expect(second.documentVersions.get('slow.json')).toBe(1);
    expect(second.missing.size).toBe(0);
    open();
    const landed = await landing[0]!;
    const third = withDocument(second, landed);
    expect(third.documents.get('slow.json')?.body.toString()).toBe('"v2"');
    expect(third.documentVersions.get('slow.json')).toBe(2);
    expect(withDocument(third, { ...landed, version: 1 })).toBe(third);
  });

  it('a first snapshot carries a seeded document, dated as stored, until its rendering lands', async () => {
    const stored = createRepresentation('"v0"', 'application/json', Date.parse('2024-04-01T00:00:00Z'));
    const seeded = new Map([['slow.json', { document: stored }]]);
    const { snapshot, slow: landing } = await buildSnapshot(state, urls, [slow('"v1"', Promise.resolve())], null, Date.now(), seeded);
    expect(snapshot.missing.size).toBe(0);
    expect(snapshot.documents.get('slow.json')).toBe(stored);
    const landed = await landing[0]!;
    // Changed bytes: dated at the publication time, which is later than the stored date.
    expect(landed.document.lastModified).toBe(Date.parse('2024-05-02T00:00:00Z'));
    expect(withDocument(snapshot, landed).documents.get('slow.json')?.body.toString()).toBe('"v1"');
    // Equal bytes keep the stored date; a snapshot with a previous one ignores the seed.
    const same = await (await buildSnapshot(state, urls, [slow('"v0"', Promise.resolve())], null, Date.now(), seeded)).slow[0]!;
    expect(same.document.lastModified).toBe(stored.lastModified);
    const next = await buildSnapshot(state, urls, [slow('"v1"', new Promise<void>(() => {}))], snapshot, Date.now(), seeded);
    expect(next.snapshot.documents.get('slow.json')).toBe(stored);
  });

  it('a cold start has the document missing until it lands', async () => {
    const { snapshot } = await buildSnapshot(state, urls, [slow('"x"', new Promise<void>(() => {}))]);
    expect(snapshot.documents.has('slow.json')).toBe(false);
    expect([...snapshot.missing]).toEqual(['slow.json']);
  });

  it('a rendering is in the background exactly when an earlier document is served meanwhile', async () => {
    const seen: (boolean | undefined)[] = [];
    const watching: SlowRenderer = {
      kind: 'slow',
      name: 'slow.json',
      contentType: 'application/json',
      render: (input: RenderInput) => (seen.push(input.background), Promise.resolve({ body: '"x"', lastModified: input.view.updatedAt })),
    };
    const first = await renderSnapshot(state, urls, [watching]);
    await buildSnapshot({ ...state, version: 2 }, urls, [watching], first);
    const seeded = new Map([['slow.json', { document: createRepresentation('"v0"', 'application/json', 0) }]]);
    await buildSnapshot(state, urls, [watching], null, Date.now(), seeded);
    expect(seen).toEqual([false, true, true]);
  });
});

/** A /proc stat line's fields after the command name (proc(5): field 4, the parent, is [1]; 19, nice, is [16]). */
function statFields(file: string): string[] | undefined {
  try {
    const stat = fs.readFileSync(file, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // ended meanwhile
  }
}

/**
 * The threads of this process and of its child processes (the insights worker is one), by
 * `pid/tid`, with their nice values (Linux keeps one per thread).
 */
function threadNice(): Map<string, number> {
  const pids = [String(process.pid)];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)))
    if (statFields(`/proc/${pid}/stat`)?.[1] === String(process.pid)) pids.push(pid);
  const out = new Map<string, number>();
  for (const pid of pids) {
    const tids = ((): string[] => {
      try {
        return fs.readdirSync(`/proc/${pid}/task`);
      } catch {
        return []; // ended meanwhile
      }
    })();
    for (const tid of tids) {
      const nice = statFields(`/proc/${pid}/task/${tid}/stat`)?.[16];
      if (nice !== undefined) out.set(`${pid}/${tid}`, Number(nice));
    }
  }
  return out;
}

describe.runIf(process.platform === 'linux')('insights renderer: background renderings yield the CPU (to the WebSub fan-out)', () => {
  const renderers: ReturnType<typeof createInsightsRenderer>[] = [];
  afterAll(() => Promise.all(renderers.map((r) => r.close())));

  /** The nice values of the threads a rendering started (its worker process's), and the calling thread's after it. */
  async function renderIn(background: boolean) {
    const r = createInsightsRenderer({ taxonomies: [], workerIdleMs: 600_000 });
    renderers.push(r);
    const before = threadNice();
    const { snapshot } = await buildSnapshot(state, urls, []);
    await r.render({ view: snapshot.view, reviewBytes: snapshot.reviewBytes, background });
    const started = [...threadNice()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
    return { started, own: os.getPriority() };
  }

  it('a background rendering runs in a worker of lower priority; the calling thread keeps its own', async () => {
    const own = os.getPriority();
    const fore = await renderIn(false);
    expect(fore.started.length).toBeGreaterThan(0);
    expect(fore.started).not.toContain(BACKGROUND_NICE);
    const back = await renderIn(true);
    expect(back.started).toContain(Math.max(own, BACKGROUND_NICE));
    expect(back.own).toBe(own);
    expect(fore.own).toBe(own);
  }, 180_000);
});
