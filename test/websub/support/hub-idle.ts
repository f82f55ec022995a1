import type { RunningServer } from '../../../src/server.js';
import { createWebSubStore } from '../../../src/storage/websub/index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits, from outside the worker, until the hub has nothing left to do for the current data: the
 * snapshot is the store's, every topic's hash is recorded (so its deliveries are enqueued), and no
 * intent or delivery is pending. The worker is only woken (its real entry point), never driven.
 */
export async function hubIdle(server: RunningServer, timeoutMs = 15_000): Promise<void> {
  const store = createWebSubStore(server.database.db, server.database.dialect);
  const db = server.database.db;
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < 2) {
    if (Date.now() > deadline) throw new Error('the hub did not become idle');
    await server.snapshots.refresh();
    server.websub.worker.wake();
    await sleep(25);
    const snapshot = server.snapshots.current();
    const topics = [server.urls.feedXml, server.urls.feedJson, server.urls.reviewsJson];
    const docs = ['feed.xml', 'feed.json', 'reviews.json'];
    const recorded = await Promise.all(topics.map((t) => store.topic(t)));
    const synced = recorded.every((r, i) => r?.contentHash === snapshot.documents.get(docs[i]!)?.contentHash);
    const intents = await db.selectFrom('websub_intents').select('id').execute();
    const pending = (await store.listSubscriptions()).some((s) => s.deliveryDueAt !== null);
    quiet = synced && intents.length === 0 && !pending ? quiet + 1 : 0;
  }
}
