import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createLogger } from '../../../src/cli/logger.js';
import { loadConfig } from '../../../src/config.js';
import { importFiles } from '../../../src/import/import-files.js';
import { createServer, DEMO_DATASET, type RunningServer } from '../../../src/server.js';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface TestReview {
  id: string;
  date: string;
  rating: number;
  title: string | null;
  text: string;
  language: string;
  author: { name: string; location: string | null };
  source: { platform: string; url: string | null };
  verified: boolean;
  hidden?: boolean;
  response: null;
}

export function review(i: number, patch: Partial<TestReview> = {}): TestReview {
  const day = String((i % 28) + 1).padStart(2, '0');
  const month = String((Math.floor(i / 28) % 12) + 1).padStart(2, '0');
  return {
    id: `ws-${String(i).padStart(3, '0')}`,
    date: `2024-${month}-${day}`,
    rating: (i % 5) + 1,
    title: null,
    text: `Review number ${i}: the technician was on time.`,
    language: 'en',
    author: { name: `Tester ${i}`, location: null },
    source: { platform: 'website', url: null },
    verified: true,
    response: null,
    ...patch,
  };
}

/** The demo business with 60 reviews: more than the feeds' 50, so an old review is only in /reviews.json. */
export function seedDataset(dir: string): string {
  const demo = JSON.parse(fs.readFileSync(DEMO_DATASET, 'utf8')) as { business: unknown };
  const file = path.join(dir, 'seed.json');
  fs.writeFileSync(file, JSON.stringify({ business: demo.business, reviews: Array.from({ length: 60 }, (_, i) => review(i)) }));
  return file;
}

export interface HubServer {
  server: RunningServer;
  baseUrl: string;
  hubUrl: string;
  topics: { xml: string; json: string; reviews: string };
  /** Imports records through the real import path and publishes the new snapshot at once. */
  importReviews(records: TestReview[]): Promise<void>;
  hubPost(
    fields: Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; type: string; text: string; headers: Headers }>;
  close(): Promise<void>;
}

export async function startHubServer(dir: string, env: Record<string, string>): Promise<HubServer> {
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${path.join(dir, 'reviews.db')}`,
    DEMO_ON_EMPTY: 'false',
    SNAPSHOT_POLL_MS: '0',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const server = await createServer(config, createLogger(process.env.WEBSUB_TEST_LOG ?? 'silent'));
  const seeded = await importFiles(server.store, { files: [seedDataset(dir)], replace: false, assumeVerified: false });
  if (!seeded.ok) throw new Error(JSON.stringify(seeded.problems));
  await server.snapshots.refresh();
  await server.app.listen({ port, host: '127.0.0.1' });
  let n = 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    server,
    baseUrl,
    hubUrl: server.urls.hub,
    topics: { xml: server.urls.feedXml, json: server.urls.feedJson, reviews: server.urls.reviewsJson },
    async importReviews(records) {
      const file = path.join(dir, `import-${++n}.json`);
      fs.writeFileSync(file, JSON.stringify(records));
      const outcome = await importFiles(server.store, { files: [file], replace: false, assumeVerified: false });
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
      await server.snapshots.refresh();
    },
    async hubPost(fields, headers = {}) {
      const res = await fetch(server.urls.hub, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text(), headers: res.headers };
    },
    close: () => server.close(),
  };
}
