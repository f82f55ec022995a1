import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RenderSuperseded } from '../../src/snapshot/renderers/document-renderer.js';
import { renderShared, type SharedRendering } from '../../src/snapshot/renderers/shared-rendering.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createDocumentCacheStore } from '../../src/storage/document-cache-store.js';

/**
 * Two replicas sharing one store, each a `renderShared` with its own holder, on a
 * real database and an injected clock for the claims' expiry (polls run on real timers of a few ms).
 */
describe('renderShared', () => {
  let handle: DatabaseHandle;
  let clock: number;
  const HASH = 'f'.repeat(64);

  beforeEach(async () => {
    handle = await openDatabase('sqlite::memory:');
    clock = Date.parse('2026-01-01T00:00:00Z');
  });
  afterEach(async () => {
    await handle.close();
  });

  const replica = (holder: string): SharedRendering => ({
    store: createDocumentCacheStore(handle.db),
    holder,
    leaseMs: 10_000,
    pollMs: 2,
    now: () => clock,
  });
  /** A rendering that finishes when told to, as the insights worker does seconds later. */
  function pending() {
    let finish!: (body: string) => void;
    let fail!: (e: Error) => void;
    const promise = new Promise<string>((resolve, reject) => ((finish = resolve), (fail = reject)));
    return { promise, finish, fail };
  }
  /** What the document cache does once a rendering lands (server.ts: documents.persist). */
  const store = (body: string) =>
    createDocumentCacheStore(handle.db).write({
      name: 'insights.json',
      inputHash: HASH,
      body,
      lastModified: clock,
      weakDate: false,
      renderedAt: new Date(clock).toISOString(),
    });
  const tick = () => new Promise((r) => setTimeout(r, 20));

  it('one replica renders; the other waits and takes its stored document without rendering', async () => {
    const work = pending();
    let renderedByB = 0;
    const a = renderShared(
      replica('a'),
      'insights.json',
      HASH,
      () => true,
      () => work.promise,
    );
    await tick();
    const b = renderShared(
      replica('b'),
      'insights.json',
      HASH,
      () => true,
      () => ((renderedByB += 1), Promise.resolve('{"by":"b"}')),
    );
    await tick();
    work.finish('{"by":"a"}');
    expect(await a).toEqual({ body: '{"by":"a"}', adopted: false, contended: false });
    await store('{"by":"a"}');
    expect(await b).toEqual({ body: '{"by":"a"}', adopted: true, contended: true });
    expect(renderedByB).toBe(0);
  });

  it('a replica that holds its claim back (no running worker) leaves the work to one that claims at once', async () => {
    const rendered: string[] = [];
    const render = (who: string) => () => (rendered.push(who), Promise.resolve(`{"by":"${who}"}`));
    const cold = renderShared(replica('cold'), 'insights.json', HASH, () => true, render('cold'), 1000);
    await tick();
    const warm = await renderShared(replica('warm'), 'insights.json', HASH, () => true, render('warm'));
    expect(warm).toEqual({ body: '{"by":"warm"}', adopted: false, contended: false });
    await store(warm.body);
    expect(await cold).toEqual({ body: '{"by":"warm"}', adopted: true, contended: true });
    expect(rendered).toEqual(['warm']);
  });

  it('a document already stored for those inputs is taken at once, without a claim', async () => {
    await store('{"stored":true}');
    const out = await renderShared(
      replica('b'),
      'insights.json',
      HASH,
      () => true,
      () => Promise.reject(new Error('must not render')),
    );
    expect(out).toEqual({ body: '{"stored":true}', adopted: true, contended: true });
  });

  it('when the holder stops renewing, the waiting replica renders once the lease lapses', async () => {
    const stuck = pending();
    void renderShared(
      { ...replica('a'), leaseMs: 10_000 },
      'insights.json',
      HASH,
      () => true,
      () => stuck.promise,
    );
    await tick();
    // The holder renews every third of its lease on real timers: a lease of 10 s is not renewed here.
    let tookOver = false;
    const b = renderShared(
      replica('b'),
      'insights.json',
      HASH,
      () => true,
      () => ((tookOver = true), Promise.resolve('{"by":"b"}')),
    );
    await tick();
    expect(tookOver).toBe(false);
    clock += 10_001;
    expect(await b).toEqual({ body: '{"by":"b"}', adopted: false, contended: true });
    expect(tookOver).toBe(true);
    stuck.finish('{"by":"a"}');
  });

  it('a failed rendering gives its claim up: the waiting replica renders at once, before the lease lapses', async () => {
    const work = pending();
    const a = renderShared(
      replica('a'),
      'insights.json',
      HASH,
      () => true,
      () => work.promise,
    );
    await tick();
    const b = renderShared(
      replica('b'),
      'insights.json',
      HASH,
      () => true,
      () => Promise.resolve('{"by":"b"}'),
    );
    await tick();
    work.fail(new Error('worker crashed'));
    await expect(a).rejects.toThrow('worker crashed');
    expect(await b).toEqual({ body: '{"by":"b"}', adopted: false, contended: true });
  });

  it('a wait that a newer rendering made pointless ends with RenderSuperseded', async () => {
    const work = pending();
    void renderShared(
      replica('a'),
      'insights.json',
      HASH,
      () => true,
      () => work.promise,
    );
    await tick();
    let wanted = true;
    const b = renderShared(
      replica('b'),
      'insights.json',
      HASH,
      () => wanted,
      () => Promise.resolve('{"by":"b"}'),
    );
    await tick();
    wanted = false;
    await expect(b).rejects.toBeInstanceOf(RenderSuperseded);
    work.finish('{"by":"a"}');
  });
});
