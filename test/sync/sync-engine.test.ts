import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewStore } from '../../src/domain/ports.js';
import type { SyncStateStore } from '../../src/domain/sync-ports.js';
import { importFiles } from '../../src/import/import-files.js';
import type { DatabaseHandle } from '../../src/storage/connect.js';
import { createReviewStore } from '../../src/storage/review-store.js';
import { createSyncStateStore } from '../../src/storage/sync-state-store.js';
import { createGoogleConnector } from '../../src/sync/google-connector.js';
import { createAccessTokens } from '../../src/sync/google-oauth.js';
import type { PlatformHttpOptions } from '../../src/sync/platform-http.js';
import { createSyncEngine, type SyncEngine } from '../../src/sync/sync-engine.js';
import { createTrustpilotConnector } from '../../src/sync/trustpilot-connector.js';
import {
  FakeGoogle,
  FakeTrustpilot,
  GOOGLE_CLIENT,
  GOOGLE_LOCATION,
  GOOGLE_REFRESH,
  TRUSTPILOT_KEY,
  TRUSTPILOT_UNIT,
  googleReview,
  trustpilotReview,
} from '../support/fake-platforms.js';
import { PACKAGE_ROOT } from '../support/build.js';
import { useTempDatabases } from '../support/temp-databases.js';

const http: PlatformHttpOptions = { timeoutMs: 2000, tries: 3, baseDelayMs: 10, maxDelayMs: 30_000, sleep: async () => undefined };
const databases = useTempDatabases('rds-sync-');

interface Harness {
  handle: DatabaseHandle;
  store: ReviewStore;
  state: SyncStateStore;
  engine: SyncEngine;
  logs: { level: string; obj: object; msg: string }[];
  runs: string[];
}

describe('the sync engine (contract §3.2)', () => {
  let google: FakeGoogle;
  let tp: FakeTrustpilot;
  let h: Harness;

  async function harness(handle?: DatabaseHandle, holder = 'A'): Promise<Harness> {
    const db = handle ?? (await databases.file());
    const store = createReviewStore(db.db);
    const state = createSyncStateStore(db.db);
    const tokens = createAccessTokens(
      { tokenUrl: new URL(`${google.url}/token`), clientId: GOOGLE_CLIENT.id, clientSecret: GOOGLE_CLIENT.secret },
      async () => GOOGLE_REFRESH,
      http,
    );
    const logs: Harness['logs'] = [];
    const runs: string[] = [];
    const engine = createSyncEngine({
      store,
      state,
      holder,
      leaseMs: 60_000,
      connectors: [
        createGoogleConnector({ apiUrl: new URL(google.url), location: GOOGLE_LOCATION, tokens, http }),
        createTrustpilotConnector({ apiUrl: new URL(tp.url), businessUnitId: TRUSTPILOT_UNIT, apiKey: TRUSTPILOT_KEY, http }),
      ],
      log: { info: (obj, msg) => logs.push({ level: 'info', obj, msg }), warn: (obj, msg) => logs.push({ level: 'warn', obj, msg }) },
      onRun: (source, outcome) => runs.push(`${source}:${outcome}`),
    });
    return { handle: db, store, state, engine, logs, runs };
  }

  beforeEach(async () => {
    google = await new FakeGoogle().start();
    tp = await new FakeTrustpilot().start();
    for (let i = 1; i <= 60; i++) google.add(googleReview(i));
    h = await harness();
    await h.store.applyImport({
      replace: false,
      reviews: [
        {
          id: 'web-1',
          date: '2025-02-02',
          rating: 4,
          title: null,
          text: 'Booked online.',
          language: 'en',
          author: { name: 'Web', location: null },
          source: { platform: 'website', url: null },
          response: null,
          verified: true,
          hidden: false,
          mention_tags: { technicians: [], services: [], service_areas: [] },
        },
      ],
    });
  });
  afterEach(async () => {
    await google.stop();
    await tp.stop();
  });

  it('a first run adds every review; a second changes nothing, not even the change counter', async () => {
    const first = await h.engine.run('google');
    expect(first).toMatchObject({ outcome: 'success', pages: 2, summary: { added: 60, updated: 0, unchanged: 0, deleted: 0 } });
    const version = await h.store.version();
    const stamps = (await h.store.reviewsById(['AbFvOqTest00001'])).map((r) => r.updated_at);
    const second = await h.engine.run('google');
    expect(second).toMatchObject({ outcome: 'success', summary: { added: 0, updated: 0, unchanged: 60, deleted: 0 } });
    expect(await h.store.version()).toBe(version);
    expect((await h.store.reviewsById(['AbFvOqTest00001'])).map((r) => r.updated_at)).toEqual(stamps);
    expect(h.runs).toEqual(['google:success', 'google:success']);
    expect((await h.state.status('google'))?.lastOutcome).toBe('success');
  });

  it('follows an edit and a deletion on the platform, and leaves other platforms’ reviews alone', async () => {
    await h.engine.run('google');
    google.add(googleReview(2, { comment: 'Edited: even better.', updateTime: '2026-01-01T00:00:00Z' }));
    google.reviews.delete('AbFvOqTest00003');
    const run = await h.engine.run('google');
    expect(run).toMatchObject({ outcome: 'success', summary: { added: 0, updated: 1, unchanged: 58, deleted: 1 } });
    const stored = await h.store.reviewsById(['AbFvOqTest00002', 'AbFvOqTest00003', 'web-1']);
    expect(stored.map((r) => r.id).sort()).toEqual(['AbFvOqTest00002', 'web-1']);
    expect(stored.find((r) => r.id === 'AbFvOqTest00002')!.text).toBe('Edited: even better.');
  });

  it('a failed run changes nothing, records why, and logs one line without a secret', async () => {
    await h.engine.run('google');
    const version = await h.store.version();
    google.reviews.delete('AbFvOqTest00004');
    google.add(googleReview(99));
    google.faults.set(2, { status: 500 });
    const run = await h.engine.run('google');
    expect(run).toMatchObject({ outcome: 'failed', code: 'http_status', message: 'the Google reviews list answered HTTP 500 (3 tries)' });
    expect(await h.store.version()).toBe(version);
    expect(await h.store.reviewsById(['AbFvOqTest00004', 'AbFvOqTest00099'])).toHaveLength(1);
    expect(await h.state.status('google')).toMatchObject({
      holder: null,
      lastOutcome: 'failed',
      lastMessage: run.outcome === 'failed' ? run.message : '',
    });
    expect(h.runs.at(-1)).toBe('google:failed');
    expect(h.logs.map((l) => l.level)).toEqual(['info', 'warn']);
    expect(h.logs[1]!.msg).toBe('sync google failed, nothing was changed: the Google reviews list answered HTTP 500 (3 tries)');
    const all = JSON.stringify(h.logs);
    for (const secret of [GOOGLE_CLIENT.secret, GOOGLE_REFRESH, 'NEVER-PRINT']) expect(all).not.toContain(secret);
  });

  it('the deletion guard refuses a listing that drops over a fifth, unless deletions are allowed', async () => {
    await h.engine.run('google');
    const version = await h.store.version();
    for (let i = 1; i <= 20; i++) google.reviews.delete(`AbFvOqTest${String(i).padStart(5, '0')}`);
    const refused = await h.engine.run('google');
    expect(refused).toMatchObject({ outcome: 'failed', code: 'deletion_guard' });
    expect(refused.outcome === 'failed' && refused.message).toMatch(/would delete 20 of the 60 stored google reviews/);
    expect(await h.store.version()).toBe(version);
    const allowed = await h.engine.run('google', { allowDeletions: true });
    expect(allowed).toMatchObject({ outcome: 'success', summary: { deleted: 20, unchanged: 40 } });
    google.emptyListing = true;
    expect(await h.engine.run('google')).toMatchObject({ outcome: 'failed', code: 'deletion_guard' });
    expect(await h.store.reviewsById(['AbFvOqTest00030'])).toHaveLength(1);
  });

  it('a listed review that cannot be read fails the run: nothing of the listing is applied', async () => {
    google.add(googleReview(61, { starRating: 'SIX' }));
    const run = await h.engine.run('google');
    expect(run).toMatchObject({ outcome: 'failed', code: 'malformed' });
    expect(run.outcome === 'failed' && run.message).toMatch(/1 unreadable review\(s\).*starRating "SIX"/);
    expect(await h.store.reviewsById(['AbFvOqTest00001'])).toEqual([]);
  });

  it('one run at a time across processes: a held claim makes another holder skip', async () => {
    const other = await harness(await databases.open(`sqlite:${path.join(path.dirname(h.handle.describe), 'db.sqlite')}`), 'B');
    expect(await other.state.claim({ source: 'google', holder: 'B', now: new Date(), leaseMs: 60_000 })).toBe(true);
    expect(await h.engine.run('google')).toEqual({ outcome: 'skipped', source: 'google' });
    expect(google.lists()).toHaveLength(0);
    await other.state.finish('google', 'B', { at: new Date(), outcome: 'success', message: null });
    expect(await h.engine.run('google')).toMatchObject({ outcome: 'success' });
  });

  it('a Trustpilot run keeps its own reviews beside Google’s', async () => {
    await h.engine.run('google');
    for (let i = 0; i < 130; i++) tp.reviews.push(trustpilotReview(i));
    expect(await h.engine.run('trustpilot')).toMatchObject({ outcome: 'success', pages: 2, summary: { added: 130 } });
    tp.reviews.splice(0, 1);
    expect(await h.engine.run('trustpilot')).toMatchObject({ outcome: 'success', summary: { deleted: 1, unchanged: 129 } });
    expect(await h.engine.run('google')).toMatchObject({ outcome: 'success', summary: { unchanged: 60, deleted: 0 } });
  });
});

describe('a sync stores what a file import of the same platform JSON stores (contract §3.2)', () => {
  it('Google: the same ids and records as importing the list response from Takeout', async () => {
    const google = await new FakeGoogle().start();
    try {
      for (let i = 1; i <= 30; i++)
        google.add(googleReview(i, i === 5 ? { comment: '(Translated by Google) Hello\n\n(Original)\nHallo' } : {}));
      const synced = await databases.file();
      const tokens = createAccessTokens(
        { tokenUrl: new URL(`${google.url}/token`), clientId: GOOGLE_CLIENT.id, clientSecret: GOOGLE_CLIENT.secret },
        async () => GOOGLE_REFRESH,
        http,
      );
      const engine = createSyncEngine({
        store: createReviewStore(synced.db),
        state: createSyncStateStore(synced.db),
        holder: 'A',
        leaseMs: 60_000,
        connectors: [createGoogleConnector({ apiUrl: new URL(google.url), location: GOOGLE_LOCATION, tokens, http })],
        log: { info: () => undefined, warn: () => undefined },
      });
      expect(await engine.run('google')).toMatchObject({ outcome: 'success' });

      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-takeout-'));
      const file = path.join(dir, 'reviews.json');
      await fs.writeFile(file, JSON.stringify({ reviews: [...google.reviews.values()] }));
      const imported = await databases.file();
      const outcome = await importFiles(createReviewStore(imported.db), { files: [file], replace: false, assumeVerified: false });
      expect(outcome.ok).toBe(true);
      await fs.rm(dir, { recursive: true, force: true });

      const records = async (db: DatabaseHandle) =>
        (await createReviewStore(db.db).load()).reviews.map(({ updated_at: _u, ...r }) => r).sort((a, b) => a.id.localeCompare(b.id));
      const fromSync = await records(synced);
      expect(fromSync).toHaveLength(30);
      expect(fromSync).toEqual(await records(imported));
      expect(fromSync.find((r) => r.id === 'AbFvOqTest00005')!.text).toBe('Hallo');
      // And a sync after the import finds every review unchanged: nothing is added twice.
      const after = createSyncEngine({
        store: createReviewStore(imported.db),
        state: createSyncStateStore(imported.db),
        holder: 'A',
        leaseMs: 60_000,
        connectors: [createGoogleConnector({ apiUrl: new URL(google.url), location: GOOGLE_LOCATION, tokens, http })],
        log: { info: () => undefined, warn: () => undefined },
      });
      expect(await after.run('google')).toMatchObject({ outcome: 'success', summary: { added: 0, updated: 0, unchanged: 30 } });
    } finally {
      await google.stop();
    }
  });
});

describe('a Trustpilot sync after an import of the Trustpilot CSV export (contract §3.2)', () => {
  it('finds the same reviews under the same ids: nothing is added twice', async () => {
    const tp = await new FakeTrustpilot().start();
    try {
      const db = await databases.file();
      const store = createReviewStore(db.db);
      const csv = path.join(PACKAGE_ROOT, 'test', 'fixtures', 'sources', 'exports', 'trustpilot-export.csv');
      const imported = await importFiles(store, { files: [csv], replace: false, assumeVerified: false });
      expect(imported.ok).toBe(true);
      const before = (await store.load()).reviews.map((r) => r.id).sort();
      // The same reviews as the public API lists them (two of the CSV's three, and one the CSV has not).
      const api = JSON.parse(
        await fs.readFile(path.join(PACKAGE_ROOT, 'test', 'fixtures', 'sources', 'exports', 'trustpilot-api.json'), 'utf8'),
      ) as {
        reviews: Record<string, unknown>[];
      };
      tp.reviews.push(...api.reviews);
      const engine = createSyncEngine({
        store,
        state: createSyncStateStore(db.db),
        holder: 'A',
        leaseMs: 60_000,
        connectors: [createTrustpilotConnector({ apiUrl: new URL(tp.url), businessUnitId: TRUSTPILOT_UNIT, apiKey: TRUSTPILOT_KEY, http })],
        log: { info: () => undefined, warn: () => undefined },
      });
      const run = await engine.run('trustpilot', { allowDeletions: true });
      expect(run.outcome).toBe('success');
      // Added: only the review the CSV did not hold; the CSV's third review is gone from the listing.
      expect(run.outcome === 'success' && run.summary).toMatchObject({ added: 1, deleted: 1 });
      const after = (await store.load()).reviews.map((r) => r.id).sort();
      expect(after).toEqual([...before.filter((id) => id !== '66828c21a1b2c3d4e5f6071a'), '6690aa11a1b2c3d4e5f6071b'].sort());
    } finally {
      await tp.stop();
    }
  });
});
