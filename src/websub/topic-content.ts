import type { TopicRecord, WebSubStore } from '../domain/websub-ports.js';
import type { RenderedDocuments, Snapshot } from '../snapshot/snapshot.js';
import type { Clock } from './clock.js';
import type { TopicContent } from './delivery.js';
import type { TopicSet } from './topic-url.js';

export interface TopicContentSource {
  /**
   * The topic's newest bytes in this process: those of the current snapshot, exactly what a GET serves,
   * or those of a newer build announced before its snapshot is published (`announce`).
   */
  content(topicUrl: string): TopicContent | null;
  /** The data version of the bytes `content` returns. */
  version(): number;
  /**
   * Takes a build's documents as soon as they are rendered, before its indexes are built and its
   * snapshot published (issue 15, fan-out), so deliveries start then. They are the representations that
   * snapshot will hold: a GET serves the same bytes and ETag once it is published. Ignored when not
   * newer than the current snapshot.
   *
   * Should that build fail afterwards, these bytes are delivered anyway: they were rendered from the
   * store's data at their version, which the next refresh reads again and publishes with the same bytes
   * (and a newer build's announcement supersedes them, as any newer content does).
   */
  announce(rendered: RenderedDocuments): void;
  /**
   * Records the newest topic hashes in the store; where one moved, the store enqueues the deliveries
   * in the same transaction. Each (topic, version, hash) is recorded once unless recording it failed.
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
  let announced: RenderedDocuments | null = null;
  /** What this process last recorded for each topic, as `version hash`. */
  const recorded = new Map<string, string>();
  let running: Promise<number> | null = null;

  /** The announced documents while they are newer than the current snapshot, then the snapshot's. */
  function newest(): RenderedDocuments {
    const snapshot = deps.snapshots.current();
    if (announced && announced.version > snapshot.version) return announced;
    announced = null; // published (or superseded by a newer snapshot): let it go
    return snapshot;
  }

  /** The topic records `rendered` asks for that this process has not made yet. */
  function unrecorded(rendered: RenderedDocuments): { key: string; record: TopicRecord }[] {
    const out: { key: string; record: TopicRecord }[] = [];
    for (const topic of deps.topics.all) {
      const doc = rendered.documents.get(topic.document);
      if (!doc) continue;
      const key = `${rendered.version} ${doc.contentHash}`;
      if (recorded.get(topic.url) !== key)
        out.push({ key, record: { topic: topic.url, contentHash: doc.contentHash, sourceVersion: rendered.version } });
    }
    return out;
  }

  async function syncOnce(): Promise<number> {
    let enqueued = 0;
    // Loops while newer documents keep arriving, so a change that lands during a sync is not left for later.
    for (let pending = unrecorded(newest()); pending.length > 0; pending = unrecorded(newest())) {
      for (const { key, record } of pending) {
        enqueued += (await deps.store.recordTopic(record, deps.clock.now())) ?? 0;
        // Only now: a failure above leaves this topic unrecorded, so the next tick records it again.
        recorded.set(record.topic, key);
      }
    }
    return enqueued;
  }

  return {
    content(topicUrl) {
      const topic = deps.topics.byUrl(topicUrl);
      const rendered = newest();
      const doc = topic ? rendered.documents.get(topic.document) : undefined;
      return doc ? { body: doc.body, contentType: doc.contentType, hash: doc.contentHash, version: rendered.version } : null;
    },
    version: () => newest().version,
    announce(rendered) {
      if (rendered.version > newest().version) announced = rendered;
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
