import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubIdle } from './support/hub-idle.js';
import { createWebSubStore } from '../../src/storage/websub/index.js';
import { startHubServer, type HubServer } from './support/test-hub-server.js';
import { makeTestPki } from './support/test-pki.js';
import { TestSubscriber } from './support/test-subscriber.js';

// A hub with the production defaults for callback safety (contract §6): private callbacks refused,
// a small per-address rate limit.

let dir: string;
let sub: TestSubscriber;
let hub: HubServer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'websub-safety-'));
  const pki = makeTestPki(dir);
  sub = await new TestSubscriber(pki).start();
  hub = await startHubServer(path.join(dir, 'strict'), {
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'false',
    WEBSUB_CA_FILE: pki.caFile,
    WEBSUB_RATE_LIMIT: '5',
    WEBSUB_TIMEOUT_MS: '2000',
  });
});

afterAll(async () => {
  await hub?.close();
  await sub?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('callback safety', () => {
  it('refuses callbacks on loopback addresses, by IP literal and by a name that resolves to one', async () => {
    const literal = sub.callback('private-literal');
    const named = sub.callback('private-name', {}, { host: 'localhost' });
    for (const callback of [literal, named]) {
      const res = await hub.hubPost({ 'hub.mode': 'subscribe', 'hub.topic': hub.topics.xml, 'hub.callback': callback });
      expect(res.status).toBe(202);
    }
    // give the hub time to try: the worker runs the verification right after the 202
    await new Promise((r) => setTimeout(r, 500));
    await hubIdle(hub.server);
    expect(sub.of('private-literal')).toHaveLength(0);
    expect(sub.of('private-name')).toHaveLength(0);
    const store = createWebSubStore(hub.server.database.db, hub.server.database.dialect);
    expect(await store.listSubscriptions()).toHaveLength(0);
    // both verifications were attempted and ended (refused at connection), none is still pending
    expect(await hub.server.database.db.selectFrom('websub_intents').select('id').execute()).toHaveLength(0);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once an address has used its requests for the minute', async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<HubServer['hubPost']>> | null = null;
    for (let i = 0; i < 6; i++) {
      const res = await hub.hubPost({ 'hub.mode': 'subscribe' });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    // two requests went to the test above; five a minute allowed
    expect(statuses).toEqual([400, 400, 400, 429, 429, 429]);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited!.type).toMatch(/^text\/plain/);
  });
});
