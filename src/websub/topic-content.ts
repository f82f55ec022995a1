import type { WebSubStore } from '../domain/websub-ports.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { Clock } from './clock.js';
import type { TopicContent } from './delivery.js';
import type { TopicSet } from './topic-url.js';

export interface TopicContentSource {
  /** The topic's current bytes in this process's snapshot, exactly what a GET serves. */
  content(topicUrl: string): TopicContent | null;
  /**
   * Records the current snapshot's topic hashes in the store; where one moved, the store enqueues the
   * deliveries in the same transaction. Runs again for the same snapshot only if a previous run failed.
   * Resolves to the number of deliveries enqueued.
   */
  sync(): Promise<number>;
}

export function createTopicContentSource(deps: {
  store: WebSubStore;
  topics: TopicSet;
  snapshots: { current(): Snapshot };
  clock: Clock;
}): TopicContentSource {
  let synced: Snapshot | null = null;
  let running: Promise<number> | null = null;

  async function syncOnce(): Promise<number> {
    let enqueued = 0;
    // Loops while snapshots keep arriving, so a change that lands during a sync is not left for later.
    for (let snapshot = deps.snapshots.current(); snapshot !== synced; snapshot = deps.snapshots.current()) {
      for (const topic of deps.topics.all) {
        const doc = snapshot.documents.get(topic.document);
        if (!doc) continue;
        const record = { topic: topic.url, contentHash: doc.contentHash, sourceVersion: snapshot.version };
        enqueued += (await deps.store.recordTopic(record, deps.clock.now())) ?? 0;
      }
      // Only now: a failure above leaves `synced` behind, so the next tick records this snapshot again.
      synced = snapshot;
    }
    return enqueued;
  }

  return {
    content(topicUrl) {
      const topic = deps.topics.byUrl(topicUrl);
      const snapshot = deps.snapshots.current();
      const doc = topic ? snapshot.documents.get(topic.document) : undefined;
      return doc ? { body: doc.body, contentType: doc.contentType, hash: doc.contentHash, version: snapshot.version } : null;
    },
    sync() {
      // One at a time: two changes in quick succession are recorded in order.
      running ??= syncOnce().finally(() => {
        running = null;
      });
      return running;
    },
  };
}
