import type { TopicRecord, WebSubStore } from '../domain/websub-ports.js';
import type { RenderedDocuments, Snapshot } from '../snapshot/snapshot.js';
import type { Clock } from './clock.js';
import type { TopicContent } from './delivery.js';
import type { TopicSet } from './topic-url.js';

export interface TopicContentSource {
  /**
   * The topic's bytes as the HTTP server serves them now: those of the current snapshot, exactly what a
   * GET of the topic URL answers. A notification carries only these (WebSub §7: it is the topic's
   * content), never bytes of a build that is not published yet.
   */
  content(topicUrl: string): TopicContent | null;
  /** The data version of the newest topic bytes this process knows of: announced, or served. */
  version(): number;
  /** The data version of the bytes `content` returns: the current snapshot's. */
  servedVersion(): number;
  /**
   * Takes a build's documents as soon as they are rendered, before its indexes are built and its
   * snapshot published, so the fan-out's work starts then: `sync` records their
   * topic hashes, which enqueues the deliveries. They are sent once the snapshot that holds those bytes
   * is published (`servedVersion` reaches them), so a subscriber that fetches the topic right after a
   * notification gets what it was told about. Ignored when not newer than the current snapshot.
   *
   * Should that build fail afterwards, the deliveries wait for the next publication: the next refresh
   * reads the same data again and publishes the same bytes (or a newer build's, which any delivery then
   * carries, as it carries the newest content of its topic).
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
      const served = deps.snapshots.current();
      const doc = topic ? served.documents.get(topic.document) : undefined;
      return doc ? { body: doc.body, contentType: doc.contentType, hash: doc.contentHash, version: served.version } : null;
    },
    version: () => newest().version,
    servedVersion: () => deps.snapshots.current().version,
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
