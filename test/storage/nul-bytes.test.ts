import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFiles } from '../../src/import/import-files.js';
import { startHubServer, review, type HubServer } from '../websub/support/test-hub-server.js';
import { describePostgres } from '../support/postgres-suite.js';

/**
 * PostgreSQL text cannot hold U+0000; SQLite can. Every value that reaches a plain text column is
 * refused at validation on both alike (a 400 or an import problem naming the field), never a 503 or a
 * raw driver error; values inside the JSON documents are escaped by JSON.stringify and round-trip.
 */
function describeNulBytes(name: string, databaseUrl: () => Promise<string>): void {
  describe(`U+0000 and other text a column cannot hold: ${name}`, () => {
    let dir: string;
    let hub: HubServer;
    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rds-nul-'));
      hub = await startHubServer(dir, { DATABASE_URL: await databaseUrl(), WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true' });
    }, 60_000);
    afterAll(async () => {
      await hub?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const subscribe = (extra: Record<string, string>) =>
      hub.hubPost({ 'hub.mode': 'subscribe', 'hub.topic': hub.topics.xml, 'hub.callback': 'https://sub.example/cb', ...extra });

    it('a hub request with a NUL in hub.secret or hub.topic is a 400 naming the field', async () => {
      const secret = await subscribe({ 'hub.secret': 'a\0b' });
      expect(secret.status, secret.text).toBe(400);
      expect(secret.text).toMatch(/^hub\.secret must not contain the NUL character/);
      const topic = await subscribe({ 'hub.topic': `${hub.topics.xml}\0` });
      expect(topic.status, topic.text).toBe(400);
      expect(topic.text).toMatch(/^hub\.topic must not contain the NUL character/);
      // A valid request still stores fine afterwards.
      expect((await subscribe({ 'hub.secret': 'fine' })).status).toBe(202);
    });

    const importRecords = async (records: unknown[]) => {
      const file = path.join(dir, `import-${Math.random().toString(36).slice(2)}.json`);
      fs.writeFileSync(file, JSON.stringify(records));
      return importFiles(hub.server.store, { files: [file], replace: false, assumeVerified: false });
    };

    it('an import record whose id holds a NUL or a lone surrogate is a problem on `id`, and nothing is written', async () => {
      const before = await hub.server.store.version();
      const outcome = await importRecords([review(900), review(901, { id: 'nul\0id' }), review(902, { id: 'half\ud800' })]);
      expect(outcome.ok).toBe(false);
      const problems = outcome.ok ? [] : outcome.problems;
      expect(problems.map((p) => [p.record, p.path, p.message])).toEqual([
        [2, 'id', 'id must not contain the NUL character (U+0000) (got "nul\\u0000id")'],
        [3, 'id', 'id must be well-formed Unicode (it holds a lone surrogate) (got "half\\ud800")'],
      ]);
      expect(await hub.server.store.version()).toBe(before);
    });

    it('a NUL inside review text, title, author and response is stored and served back unchanged', async () => {
      const record = {
        ...review(903, { title: 'ti\0tle', text: 'te\0xt', author: { name: 'Jo\0 D.', location: 'some\0where' } }),
        response: { text: 'tha\0nks', date: null },
      };
      const outcome = await importRecords([record]);
      expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
      await hub.server.snapshots.refresh();
      const res = await fetch(`${hub.baseUrl}/api/reviews/${record.id}`);
      expect(res.status).toBe(200);
      const { review: served } = (await res.json()) as { review: { title: string; text: string; author: unknown; response: unknown } };
      expect(served).toMatchObject({ title: 'ti\0tle', text: 'te\0xt', author: { name: 'Jo\0 D.', location: 'some\0where' } });
      expect(served.response).toMatchObject({ text: 'tha\0nks' });
      const stored = await hub.server.store.reviewsById([record.id]);
      expect(stored[0]?.text).toBe('te\0xt');
    });
  });
}

const sqliteDirs: string[] = [];
afterAll(() => {
  for (const d of sqliteDirs) fs.rmSync(d, { recursive: true, force: true });
});

describeNulBytes('SQLite', async () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'rds-nul-db-'));
  sqliteDirs.push(d);
  return `sqlite:${path.join(d, 'reviews.db')}`;
});

await describePostgres('PostgreSQL', ({ freshDatabase }) => {
  describeNulBytes('PostgreSQL', async () => (await freshDatabase()).url);
});
