import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubIdle } from './support/hub-idle.js';
import { review, startHubServer, type HubServer } from './support/test-hub-server.js';
import { makeTestPki, type TestPki } from './support/test-pki.js';
import { TestSubscriber } from './support/test-subscriber.js';

// End to end over real sockets and real TLS: a hub server in this process, HTTPS subscribers on
// 127.0.0.1 signed by a throw-away CA passed through WEBSUB_CA_FILE. Mirrors websub.rocks hub tests
// 100-104 plus the contract's failure rules (contract §6).

let dir: string;
let pki: TestPki;
let sub: TestSubscriber;
let hub: HubServer;

const isVerified = (name: string, mode = 'subscribe') => sub.waitFor(name, () => sub.verifications(name, mode).length > 0);

async function subscribe(name: string, topic: string, behaviour = {}, extra: Record<string, string> = {}) {
  const callback = sub.callback(name, behaviour);
  const res = await hub.hubPost({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': callback, ...extra });
  expect(res.status, res.text).toBe(202);
  expect(await isVerified(name)).toBe(true);
  // The subscription becomes active once the hub has read the echo: let the worker finish.
  await hubIdle(hub.server);
  return callback;
}

/** A change that moves every topic: a new newest review. */
let seq = 100;
async function changeEverything(): Promise<void> {
  await hub.importReviews([review(seq++, { date: '2025-06-01', text: `Fresh review ${seq}` })]);
  await hubIdle(hub.server);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'websub-e2e-'));
  pki = makeTestPki(dir);
  sub = await new TestSubscriber(pki).start();
  hub = await startHubServer(path.join(dir, 'main'), {
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    WEBSUB_CA_FILE: pki.caFile,
    WEBSUB_RETRY_DELAYS: '0.05,0.05',
    WEBSUB_TIMEOUT_MS: '3000',
    WEBSUB_RATE_LIMIT: '100000',
  });
});

afterAll(async () => {
  await hub?.close();
  await sub?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('subscription requests', () => {
  it('100: a plain subscription is accepted (202) and verified with a GET that keeps the callback query', async () => {
    await subscribe('plain', hub.topics.xml);
    const v = sub.verifications('plain', 'subscribe')[0]!;
    expect(v.query.get('sub')).toBe('plain');
    expect(v.query.get('token')).toBe('t-plain');
    expect(v.query.get('hub.topic')).toBe(hub.topics.xml);
    expect(v.query.get('hub.lease_seconds')).toBe('864000');
    expect(v.query.get('hub.challenge')!.length).toBeGreaterThanOrEqual(22);
    // the hub parameters are appended after the callback's own
    expect(v.url).toMatch(/^\/cb\/plain\?sub=plain&token=t-plain&hub\./);
  });

  it('102: unknown parameters are ignored', async () => {
    await subscribe('extra', hub.topics.json, {}, { foo: 'bar', 'hub.foo': 'x' });
  });

  it('grants leases within [min, max] and normalizes topic URLs', async () => {
    await subscribe('lease-short', hub.topics.xml, {}, { 'hub.lease_seconds': '5' });
    await subscribe('lease-huge', hub.topics.xml, {}, { 'hub.lease_seconds': '999999999999' });
    expect(sub.verifications('lease-short')[0]!.query.get('hub.lease_seconds')).toBe('3600');
    expect(sub.verifications('lease-huge')[0]!.query.get('hub.lease_seconds')).toBe('2592000');
    const odd = hub.topics.xml.replace('http://', 'HTTP://').replace('/feed.xml', '/%66eed.xml').replace('127.0.0.1:', '127.0.0.1:');
    await subscribe('normalized', odd);
    expect(sub.verifications('normalized')[0]!.query.get('hub.topic')).toBe(odd);
  });

  it('challenges are fresh and never reused', () => {
    const all = sub.events.filter((e) => e.method === 'GET' && e.query.get('hub.challenge')).map((e) => e.query.get('hub.challenge'));
    expect(all.length).toBeGreaterThan(3);
    expect(new Set(all).size).toBe(all.length);
  });

  it('refuses invalid requests with 400 text/plain and contacts nobody', async () => {
    const cases: Record<string, string>[] = [
      { 'hub.mode': 'subscribe', 'hub.topic': hub.topics.xml, 'hub.callback': sub.callback('bad-http', {}, { plainHttp: true }) },
      { 'hub.mode': 'subscribe', 'hub.topic': `${hub.baseUrl}/nope.xml`, 'hub.callback': sub.callback('bad-topic') },
      { 'hub.mode': 'subscribe', 'hub.topic': 'https://example.com/feed.xml', 'hub.callback': sub.callback('bad-topic') },
      { 'hub.mode': 'publish', 'hub.topic': hub.topics.xml, 'hub.callback': sub.callback('bad-mode') },
      { 'hub.topic': hub.topics.xml, 'hub.callback': sub.callback('bad-mode') },
      { 'hub.mode': 'subscribe', 'hub.topic': hub.topics.xml, 'hub.callback': '/relative' },
      { 'hub.mode': 'subscribe', 'hub.topic': hub.topics.xml, 'hub.callback': sub.callback('bad-secret'), 'hub.secret': 'x'.repeat(200) },
      { 'hub.mode': 'subscribe', 'hub.topic': hub.topics.xml, 'hub.callback': sub.callback('bad-lease'), 'hub.lease_seconds': '0' },
      { 'hub.mode': 'subscribe', 'hub.topic': hub.topics.xml, 'hub.callback': sub.callback('bad-lease'), 'hub.lease_seconds': '-5' },
      { 'hub.mode': 'subscribe', 'hub.topic': hub.topics.xml, 'hub.callback': sub.callback('bad-lease'), 'hub.lease_seconds': '1.5' },
    ];
    for (const fields of cases) {
      const res = await hub.hubPost(fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.type).toMatch(/^text\/plain/);
      expect(res.text.trim().length).toBeGreaterThan(0);
    }
    await new Promise((r) => setTimeout(r, 300));
    for (const name of ['bad-http', 'bad-topic', 'bad-mode', 'bad-secret', 'bad-lease']) expect(sub.of(name)).toHaveLength(0);
  });

  it('answers other media types with 415 and other methods with 405', async () => {
    const json = await fetch(hub.hubUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(415);
    const get = await fetch(hub.hubUrl);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
  });

  it('a callback that echoes a wrong challenge is never activated', async () => {
    const callback = sub.callback('wrong-echo', { verify: 'wrong' });
    expect((await hub.hubPost({ 'hub.mode': 'subscribe', 'hub.topic': hub.topics.json, 'hub.callback': callback })).status).toBe(202);
    expect(await isVerified('wrong-echo')).toBe(true);
    await hubIdle(hub.server);
    const stored = await listCallbacks();
    expect(stored).not.toContain(callback);
  });
});

async function listCallbacks(): Promise<string[]> {
  const { createWebSubStore } = await import('../../src/storage/websub/index.js');
  const store = createWebSubStore(hub.server.database.db, hub.server.database.dialect);
  return (await store.listSubscriptions()).map((s) => s.callback);
}

describe('content distribution', () => {
  it('100/101: one POST per change with the full content, the topic Content-Type, Link, and a signature only with a secret', async () => {
    await subscribe('signed', hub.topics.json, {}, { 'hub.secret': 'a-test-secret' });
    await subscribe('all-reviews', hub.topics.reviews);
    const before = {
      plain: sub.notifications('plain').length,
      signed: sub.notifications('signed').length,
      all: sub.notifications('all-reviews').length,
    };
    await changeEverything();
    for (const [name, topic, count] of [
      ['plain', hub.topics.xml, before.plain],
      ['signed', hub.topics.json, before.signed],
      ['all-reviews', hub.topics.reviews, before.all],
    ] as const) {
      const posts = sub.notifications(name);
      expect(posts.length, name).toBe(count + 1);
      const last = posts.at(-1)!;
      const fresh = await fetch(topic);
      expect(last.body.equals(Buffer.from(await fresh.arrayBuffer())), name).toBe(true);
      expect(last.headers['content-type']).toBe(fresh.headers.get('content-type'));
      expect(last.headers.link).toBe(`<${hub.hubUrl}>; rel="hub", <${topic}>; rel="self"`);
    }
    const signed = sub.notifications('signed').at(-1)!;
    expect(signed.headers['x-hub-signature']).toBe(
      `sha256=${crypto.createHmac('sha256', 'a-test-secret').update(signed.body).digest('hex')}`,
    );
    expect(sub.notifications('plain').at(-1)!.headers['x-hub-signature']).toBeUndefined();
  });

  it('103: re-subscribing gives exactly one notification per change', async () => {
    const callback = sub.callback('resub');
    for (let i = 0; i < 2; i++) {
      expect((await hub.hubPost({ 'hub.mode': 'subscribe', 'hub.topic': hub.topics.xml, 'hub.callback': callback })).status).toBe(202);
      expect(await sub.waitFor('resub', () => sub.verifications('resub', 'subscribe').length === i + 1)).toBe(true);
      await hubIdle(hub.server);
    }
    await changeEverything();
    expect(sub.notifications('resub')).toHaveLength(1);
  });

  it('104: nothing reaches a callback after a verified unsubscribe', async () => {
    const callback = await subscribe('unsub', hub.topics.json);
    expect((await hub.hubPost({ 'hub.mode': 'unsubscribe', 'hub.topic': hub.topics.json, 'hub.callback': callback })).status).toBe(202);
    expect(await isVerified('unsub', 'unsubscribe')).toBe(true);
    expect(sub.verifications('unsub', 'unsubscribe')[0]!.query.get('sub')).toBe('unsub');
    await hubIdle(hub.server);
    await changeEverything();
    expect(sub.notifications('unsub')).toHaveLength(0);
    expect(sub.notifications('wrong-echo')).toHaveLength(0);
  });

  it('an import that changes nothing published triggers nothing; one that moves some topics reaches only those', async () => {
    const count = () => [sub.notifications('plain').length, sub.notifications('signed').length, sub.notifications('all-reviews').length];
    const start = count();
    // the same record again, and a hidden one: the store changes, the published bytes do not
    await hub.importReviews([review(seq - 1, { date: '2025-06-01', text: `Fresh review ${seq}` }), review(900, { hidden: true })]);
    await hubIdle(hub.server);
    expect(count()).toEqual(start);
    // an old review (not among the feeds' 50 newest): reviews.json and the Atom feed's <updated> move, the JSON Feed does not
    await hub.importReviews([review(0, { text: 'Edited long after.' })]);
    await hubIdle(hub.server);
    expect(count()).toEqual([start[0]! + 1, start[1]!, start[2]! + 1]);
  });
});

describe('failures', () => {
  it('3 consecutive failures remove the subscriber, which then gets a hub.mode=denied GET', async () => {
    await subscribe('fail-500', hub.topics.reviews, { notify: 500 });
    await changeEverything();
    expect(await sub.waitFor('fail-500', () => sub.verifications('fail-500', 'denied').length === 1)).toBe(true);
    const denial = sub.verifications('fail-500', 'denied')[0]!;
    expect(sub.notifications('fail-500').filter((e) => e.at <= denial.at)).toHaveLength(3);
    expect(denial.query.get('hub.topic')).toBe(hub.topics.reviews);
    expect(denial.query.get('hub.reason')).toBeTruthy();
    await changeEverything();
    expect(sub.notifications('fail-500')).toHaveLength(3);
  });

  it('a 2xx resets the failure count', async () => {
    // fails, fails, succeeds; then fails, fails, succeeds: never three in a row, so it stays
    const flaky = { notify: (n: number) => (n === 2 || n >= 5 ? 204 : 500) };
    await subscribe('flaky', hub.topics.reviews, flaky);
    await changeEverything();
    await sub.waitFor('flaky', (ev) => ev.filter((e) => e.method === 'POST').length === 3);
    await hubIdle(hub.server);
    await changeEverything();
    expect(await sub.waitFor('flaky', (ev) => ev.filter((e) => e.method === 'POST').length === 6, 5000)).toBe(true);
    await hubIdle(hub.server);
    expect(sub.verifications('flaky', 'denied')).toHaveLength(0);
    expect(await listCallbacks()).toContain(sub.callback('flaky', flaky));
  });

  it('410 Gone removes the subscription at once', async () => {
    await subscribe('gone', hub.topics.xml, { notify: 410 });
    await changeEverything();
    await changeEverything();
    expect(sub.notifications('gone')).toHaveLength(1);
    expect(sub.verifications('gone', 'denied')).toHaveLength(0);
  });

  it('redirects are failures and are not followed', async () => {
    const target = sub.callback('redirect-target');
    await subscribe('redirect', hub.topics.xml, { notify: 307, location: target });
    await changeEverything();
    expect(await sub.waitFor('redirect', () => sub.verifications('redirect', 'denied').length === 1)).toBe(true);
    expect(sub.notifications('redirect')).toHaveLength(3);
    expect(sub.of('redirect-target')).toHaveLength(0);
  });
});
