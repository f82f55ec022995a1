import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebSubStore } from '../../src/domain/websub-ports.js';
import { createRepresentation } from '../../src/snapshot/rendered-document.js';
import type { Snapshot } from '../../src/snapshot/snapshot.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/connect.js';
import { createWebSubStore } from '../../src/storage/websub/index.js';
import type { CallbackClient, CallbackResponse } from '../../src/websub/callback-client.js';
import { createHubWorker, HELP_DELAY_MS, type HubWorker } from '../../src/websub/hub-worker.js';
import { createHubWatch } from '../support/hub-settle.js';
import { createManualTime } from '../support/manual-time.js';
import { createTopicContentSource, type TopicContentSource } from '../../src/websub/topic-content.js';
import { createTopicSet } from '../../src/websub/topic-url.js';
import { createServiceUrls } from '../../src/domain/urls.js';

// The worker over a real (in-memory SQLite) store, a scripted callback client and an injected clock:
// leases, backoff and claim expiry without sleeping.

const urls = createServiceUrls('https://reviews.example.com');
const topics = createTopicSet(urls);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

interface Sent {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  headers?: Record<string, string>;
}

function scriptedClient(onPost: (url: string, n: number, signal?: AbortSignal) => CallbackResponse | Promise<CallbackResponse>) {
  const sent: Sent[] = [];
  const client: CallbackClient = {
    async get(url) {
      sent.push({ method: 'GET', url });
      return { ok: true, status: 200, body: new URL(url).searchParams.get('hub.challenge') ?? '' };
    },
    async post(url, body, headers, signal) {
      sent.push({ method: 'POST', url, body: body.toString(), headers });
      return onPost(url, sent.filter((s) => s.method === 'POST' && s.url === url).length - 1, signal);
    },
    async close() {},
  };
  return { client, sent, posts: (url: string) => sent.filter((s) => s.method === 'POST' && s.url === url) };
}

function snapshotWith(version: number, text: string): Snapshot {
  const doc = (body: string, contentType: string) => createRepresentation(body, contentType, 0);
  return {
    version,
    documents: new Map([
      ['feed.xml', doc(`<feed>${text}</feed>`, 'application/atom+xml; charset=utf-8')],
      ['feed.json', doc(`{"feed":"${text}"}`, 'application/feed+json')],
      ['reviews.json', doc(`{"reviews":"${text}"}`, 'application/json; charset=utf-8')],
    ]),
  } as unknown as Snapshot;
}

let handle: DatabaseHandle;
let store: WebSubStore;
let time: ReturnType<typeof createManualTime>;
let current: Snapshot;
let watch: ReturnType<typeof createHubWatch>;
const workers: HubWorker[] = [];

/** Until the worker has nothing left to do, driven only through wake() (the snapshot-change path). */
const settle = (w: HubWorker) => watch.settle(() => w.wake());

/** A worker over its own content source (its process's snapshots: the shared `current` unless given). */
function worker(client: CallbackClient, id = 'w1', snapshots = { current: () => current }): HubWorker & { content: TopicContentSource } {
  const watched = watch.store(store);
  const content = createTopicContentSource({ store: watched, topics, snapshots, clock: time.clock });
  const w = createHubWorker({
    store: watched,
    client: watch.client(client),
    content,
    hubUrl: urls.hub,
    clock: time.clock,
    scheduler: time.scheduler,
    logger: quiet,
    workerId: id,
    concurrency: 4,
    timeoutMs: 1000,
    retryDelaysSeconds: [60, 600],
  });
  workers.push(w);
  return Object.assign(w, { content });
}

async function subscribe(w: HubWorker, callback: string, topic = urls.feedXml, leaseSeconds = 3600, secret: string | null = null) {
  const now = time.clock.now();
  await store.addIntents([
    {
      id: `i-${callback}-${now}`,
      mode: 'subscribe',
      topic,
      requestedTopic: topic,
      callback,
      secret,
      leaseSeconds,
      createdAt: now,
      dueAt: now,
    },
  ]);
  await settle(w);
}

async function publish(w: HubWorker, version: number, text: string) {
  current = snapshotWith(version, text);
  await settle(w);
}

beforeEach(async () => {
  handle = await openDatabase('sqlite::memory:');
  store = createWebSubStore(handle.db, handle.dialect);
  time = createManualTime();
  watch = createHubWatch();
  current = snapshotWith(1, 'v1');
});

afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
  await handle.close();
});

describe('hub worker', () => {
  it('verifies, then delivers each change once with the exact bytes, type, Link and signature', async () => {
    const { client, sent, posts } = scriptedClient(() => ({ ok: true, status: 204, body: '' }));
    const w = worker(client);
    await settle(w); // records v1: the baseline, nobody subscribed yet
    await subscribe(w, 'https://a.example/cb?x=1', urls.feedXml, 3600, 'sekrit');
    expect(sent[0]!.url).toMatch(
      /^https:\/\/a\.example\/cb\?x=1&hub\.mode=subscribe&hub\.topic=.+&hub\.challenge=.+&hub\.lease_seconds=3600$/,
    );
    await publish(w, 2, 'v2');
    await publish(w, 3, 'v2'); // a new data version with the same bytes: nothing to send
    const p = posts('https://a.example/cb?x=1');
    expect(p).toHaveLength(1);
    expect(p[0]!.body).toBe('<feed>v2</feed>');
    expect(p[0]!.headers!['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(p[0]!.headers!.link).toBe(`<${urls.hub}>; rel="hub", <${urls.feedXml}>; rel="self"`);
    expect(p[0]!.headers!['x-hub-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('coalesces pending deliveries to one subscriber into one POST of the newest content', async () => {
    const { client, posts } = scriptedClient(() => ({ ok: true, status: 204, body: '' }));
    const w = worker(client);
    await settle(w);
    await subscribe(w, 'https://a.example/cb');
    // three changes recorded before the worker gets to the subscriber's delivery
    for (const [v, t] of [
      [2, 'v2'],
      [3, 'v3'],
      [4, 'v4'],
    ] as const) {
      current = snapshotWith(v, t);
      await store.recordTopic({ topic: urls.feedXml, contentHash: `h-${t}`, sourceVersion: v }, time.clock.now());
    }
    await settle(w);
    expect(posts('https://a.example/cb').map((p) => p.body)).toEqual(['<feed>v4</feed>']);
  });

  it('sends newer content again when it arrives while a delivery is in flight, never more than once more', async () => {
    let release: (() => void) | null = null;
    const { client, posts } = scriptedClient((_url, n) =>
      n === 0 ? new Promise((r) => (release = () => r({ ok: true, status: 200, body: '' }))) : { ok: true, status: 200, body: '' },
    );
    const w = worker(client);
    await settle(w);
    await subscribe(w, 'https://a.example/cb');
    current = snapshotWith(2, 'v2');
    w.wake();
    while (!release) await new Promise((r) => setTimeout(r, 5));
    current = snapshotWith(3, 'v3');
    w.wake();
    current = snapshotWith(4, 'v4');
    w.wake();
    await new Promise((r) => setTimeout(r, 50));
    (release as () => void)();
    await settle(w);
    expect(posts('https://a.example/cb').map((p) => p.body)).toEqual(['<feed>v2</feed>', '<feed>v4</feed>']);
  });

  it('retries after the configured delays, then removes the subscriber after 3 failures and sends a denial', async () => {
    const { client, sent, posts } = scriptedClient(() => ({ ok: true, status: 500, body: '' }));
    const w = worker(client);
    await settle(w);
    await subscribe(w, 'https://a.example/cb');
    await publish(w, 2, 'v2');
    expect(posts('https://a.example/cb')).toHaveLength(1);
    time.advance(59_000);
    await settle(w);
    expect(posts('https://a.example/cb')).toHaveLength(1);
    time.advance(1_000);
    await settle(w);
    expect(posts('https://a.example/cb')).toHaveLength(2);
    time.advance(599_000);
    await settle(w);
    expect(posts('https://a.example/cb')).toHaveLength(2);
    time.advance(1_000);
    await settle(w);
    expect(posts('https://a.example/cb')).toHaveLength(3);
    const denial = sent.filter((s) => s.method === 'GET' && new URL(s.url).searchParams.get('hub.mode') === 'denied');
    expect(denial).toHaveLength(1);
    expect(new URL(denial[0]!.url).searchParams.get('hub.topic')).toBe(urls.feedXml);
    expect(await store.listSubscriptions()).toHaveLength(0);
  });

  it('treats a connection error or timeout as a failed attempt, and a 2xx resets the count', async () => {
    const { client } = scriptedClient((_url, n) => (n === 0 ? { ok: false, error: 'timeout' } : { ok: true, status: 200, body: '' }));
    const w = worker(client);
    await settle(w);
    await subscribe(w, 'https://a.example/cb');
    await publish(w, 2, 'v2');
    expect((await store.listSubscriptions())[0]!.failures).toBe(1);
    time.advance(60_000);
    await settle(w);
    expect((await store.listSubscriptions())[0]!.failures).toBe(0);
  });

  it('sends nothing to an expired subscription', async () => {
    const { client, posts } = scriptedClient(() => ({ ok: true, status: 204, body: '' }));
    const w = worker(client);
    await settle(w);
    await subscribe(w, 'https://a.example/cb', urls.feedXml, 3600);
    time.advance(3600 * 1000 + 1);
    await publish(w, 2, 'v2');
    expect(posts('https://a.example/cb')).toHaveLength(0);
  });

  it('a failed verification leaves the previous subscription as it was', async () => {
    let echo = true;
    const { client } = scriptedClient(() => ({ ok: true, status: 204, body: '' }));
    const get = client.get;
    client.get = async (url) => (echo ? get(url) : { ok: true, status: 200, body: 'wrong' });
    const w = worker(client);
    await settle(w);
    await subscribe(w, 'https://a.example/cb', urls.feedXml, 3600, 'first');
    echo = false;
    await subscribe(w, 'https://a.example/cb', urls.feedXml, 7200, 'second');
    const [s] = await store.listSubscriptions();
    expect(s!.secret).toBe('first');
    expect(s!.leaseSeconds).toBe(3600);
  });

  it('on stop, releases what it claimed so another worker takes it at once', async () => {
    // a subscriber that never answers: only the shutdown abort ends the request
    const { client, posts } = scriptedClient(
      (_url, _n, signal) =>
        new Promise<CallbackResponse>((r) => signal?.addEventListener('abort', () => r({ ok: false, error: 'aborted' }))),
    );
    const w = worker(client, 'dying');
    await settle(w);
    await subscribe(w, 'https://a.example/cb');
    current = snapshotWith(2, 'v2');
    w.wake();
    while (posts('https://a.example/cb').length === 0) await new Promise((r) => setTimeout(r, 5));
    const stopping = w.stop();
    time.advance(5000); // the shutdown grace
    await stopping;
    const other = scriptedClient(() => ({ ok: true, status: 204, body: '' }));
    const w2 = worker(other.client, 'heir');
    await settle(w2);
    expect(other.posts('https://a.example/cb').map((p) => p.body)).toEqual(['<feed>v2</feed>']);
  });

  it('records a build’s announced topic bytes at once, and delivers them only once its snapshot is published', async () => {
    const { client, posts } = scriptedClient(() => ({ ok: true, status: 204, body: '' }));
    const w = worker(client);
    await settle(w);
    await subscribe(w, 'https://a.example/cb');
    // The build of version 2 has rendered its documents; its index work is still running.
    const building = snapshotWith(2, 'v2');
    w.content.announce(building);
    await settle(w);
    expect(current.version).toBe(1);
    // Recorded and enqueued (the fan-out's work has started), not sent: a GET still serves version 1.
    expect((await store.topic(urls.feedXml))?.sourceVersion).toBe(2);
    expect(posts('https://a.example/cb')).toHaveLength(0);
    // Its publication: the same representations, already recorded, now sent, once.
    current = building;
    await settle(w);
    expect(posts('https://a.example/cb').map((p) => p.body)).toEqual(['<feed>v2</feed>']);
    await settle(w);
    expect(posts('https://a.example/cb')).toHaveLength(1);
  });

  it('gives the bytes the current snapshot serves, and knows the newest announced version; an older announcement is ignored', () => {
    const { client } = scriptedClient(() => ({ ok: true, status: 204, body: '' }));
    const w = worker(client);
    w.content.announce(snapshotWith(3, 'v3'));
    w.content.announce(snapshotWith(2, 'v2'));
    expect(w.content.version()).toBe(3);
    expect(w.content.servedVersion()).toBe(1);
    expect(w.content.content(urls.feedXml)?.body.toString()).toBe('<feed>v1</feed>');
    current = snapshotWith(4, 'v4');
    expect(w.content.content(urls.feedXml)?.body.toString()).toBe('<feed>v4</feed>');
    w.content.announce(snapshotWith(3, 'v3'));
    expect(w.content.version()).toBe(4);
  });

  it('a replica without the newest content hands a delivery back at once and claims none until it has it', async () => {
    const behind = scriptedClient(() => ({ ok: true, status: 204, body: '' }));
    const slow = worker(behind.client, 'still-building');
    // How many deliveries it claimed: the one it hands back must have been claimed to be handed back.
    let claimed = 0;
    const claimDueDeliveries = store.claimDueDeliveries.bind(store);
    store.claimDueDeliveries = async (options) => {
      const out = await claimDueDeliveries(options);
      if (options.worker === 'still-building') claimed += out.length;
      return out;
    };
    const slowClaims = () => claimed;
    await settle(slow);
    await subscribe(slow, 'https://a.example/cb');
    // Another replica built version 2 first and recorded it: the outbox now holds the delivery. It has
    // not sent it within the help delay, so the others may take it.
    const v2 = snapshotWith(2, 'v2');
    await store.recordTopic(
      { topic: urls.feedXml, contentHash: v2.documents.get('feed.xml')!.contentHash, sourceVersion: 2 },
      time.clock.now(),
    );
    time.advance(HELP_DELAY_MS);
    await settle(slow);
    expect(slowClaims()).toBe(1);
    expect(behind.posts('https://a.example/cb')).toHaveLength(0);
    // Handed back due now, not after a poll interval, and left alone (settle would never end otherwise).
    const [pendingSub] = await store.listSubscriptions();
    expect(pendingSub!.deliveryDueAt).not.toBeNull();
    expect(pendingSub!.deliveryDueAt!).toBeLessThanOrEqual(time.clock.now());
    // The replica that has version 2 takes it at once, with no time passing.
    const ahead = scriptedClient(() => ({ ok: true, status: 204, body: '' }));
    const done = worker(ahead.client, 'done-building', { current: () => v2 });
    await settle(done);
    expect(ahead.posts('https://a.example/cb').map((p) => p.body)).toEqual(['<feed>v2</feed>']);
    // Once its own build of newer content is published, the first replica claims deliveries again.
    const v3 = snapshotWith(3, 'v3');
    slow.content.announce(v3);
    await settle(slow);
    expect(behind.posts('https://a.example/cb')).toHaveLength(0);
    current = v3;
    await settle(slow);
    expect(behind.posts('https://a.example/cb').map((p) => p.body)).toEqual(['<feed>v3</feed>']);
  });

  /** Two replicas' workers on one store, both settled, whose callbacks all answer 204. */
  async function twoReplicas() {
    const ok = () => ({ ok: true as const, status: 204, body: '' });
    const first = scriptedClient(ok);
    const other = scriptedClient(ok);
    const enqueuer = worker(first.client, 'enqueuer');
    const helper = worker(other.client, 'helper');
    await settle(enqueuer);
    await settle(helper);
    return { first, other, enqueuer, helper };
  }

  it('leaves the deliveries a replica enqueued to it for the help delay, then another replica takes them', async () => {
    const { first, other, enqueuer, helper } = await twoReplicas();
    await subscribe(enqueuer, 'https://a.example/cb');
    await subscribe(enqueuer, 'https://b.example/cb');
    // Both replicas have version 2; the enqueuer recorded it first (the first step of its pass), so the
    // change is its to send.
    current = snapshotWith(2, 'v2');
    expect(await enqueuer.content.sync()).toBe(2);
    await settle(helper);
    time.advance(HELP_DELAY_MS - 1);
    await settle(helper);
    expect(other.sent.filter((s) => s.method === 'POST')).toHaveLength(0);
    // Still due a help delay after it was enqueued: the enqueuer is behind or gone, the helper sends it.
    time.advance(1);
    await settle(helper);
    expect(other.posts('https://a.example/cb').map((p) => p.body)).toEqual(['<feed>v2</feed>']);
    expect(other.posts('https://b.example/cb').map((p) => p.body)).toEqual(['<feed>v2</feed>']);
    await settle(enqueuer);
    expect(first.sent.filter((s) => s.method === 'POST')).toHaveLength(0);
  });

  it('the replica that enqueued a change sends all of it at once, another that woke with it sends none', async () => {
    const { first, other, enqueuer, helper } = await twoReplicas();
    const callbacks = Array.from({ length: 10 }, (_, i) => `https://s${i}.example/cb`); // more than its 4 slots
    for (const cb of callbacks) await subscribe(enqueuer, cb);
    current = snapshotWith(2, 'v2');
    // Both wake with the new snapshot, the enqueuer first (it records the topics); no time passes.
    enqueuer.wake();
    await settle(helper);
    await settle(enqueuer);
    expect(callbacks.map((cb) => first.posts(cb).map((p) => p.body))).toEqual(callbacks.map(() => ['<feed>v2</feed>']));
    expect(other.sent.filter((s) => s.method === 'POST')).toHaveLength(0);
  });
});
