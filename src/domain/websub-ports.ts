/**
 * The WebSub hub's port (style.md: the core owns the port, each database implements it). The store holds
 * every piece of hub state, so a restart, a crash or another replica loses nothing (contract §6):
 * subscriptions, pending verifications (intents) and the delivery outbox.
 *
 * Times are epoch milliseconds in this interface; the adapter stores them as ISO text.
 */

export type HubMode = 'subscribe' | 'unsubscribe';

export interface Subscription {
  id: string;
  /** The canonical topic URL (one of the three, contract §6). */
  topic: string;
  callback: string;
  secret: string | null;
  leaseSeconds: number;
  expiresAt: number;
  /** Consecutive failed delivery attempts; a 2xx resets it (contract §6). */
  failures: number;
  createdAt: number;
  updatedAt: number;
}

/** A subscription request waiting for its verification of intent (WebSub §5.3). */
export interface Intent {
  id: string;
  mode: HubMode;
  topic: string;
  /** The topic as the subscriber spelled it: echoed in hub.topic so its own comparison holds. */
  requestedTopic: string;
  callback: string;
  secret: string | null;
  /** The lease granted (already clamped) for a subscribe; unused for an unsubscribe. */
  leaseSeconds: number;
  createdAt: number;
}

export type NewIntent = Intent & {
  dueAt: number;
  /** Stored already claimed by the worker that will verify it (the replica that answers 202). */
  claim?: { worker: string; until: number };
};

/** A pending delivery claimed by one worker, with what it needs to send it. */
export interface ClaimedDelivery {
  subscription: Subscription;
  /** Bumped by every enqueue: a delivery is done only when the content it sent is still the newest. */
  generation: number;
  attempts: number;
}

export interface TopicRecord {
  topic: string;
  contentHash: string;
  /** The data version of the snapshot that produced this content. */
  sourceVersion: number;
}

export interface IntentOutcome {
  verified: boolean;
  worker: string;
  /** When the verification request was made: the lease runs from then (WebSub §5.3). */
  now: number;
}

export interface ClaimOptions {
  worker: string;
  now: number;
  /** When the claim lapses and another worker may take the item over. */
  claimUntil: number;
  limit: number;
}

export interface SubscriptionListing extends Subscription {
  /** When the next delivery attempt is due, or null when nothing is pending. */
  deliveryDueAt: number | null;
}

/** Pending verifications of intent (WebSub §5.3). */
export interface IntentStore {
  /** Stores intents in one transaction (group commit of concurrent hub requests). */
  addIntents(intents: NewIntent[]): Promise<void>;
  claimDueIntents(options: ClaimOptions): Promise<Intent[]>;
  /**
   * Ends claimed intents, in one transaction. Verified: a subscribe replaces the (topic, callback)
   * state, an unsubscribe removes it. Not verified: the state stays as it was (WebSub §5.1.2). Each
   * result is false when that claim was lost.
   */
  completeIntents(items: { intent: Intent; outcome: IntentOutcome }[]): Promise<boolean[]>;
  releaseIntent(id: string, worker: string): Promise<void>;
}

/** Each topic's last published content, and the outbox its changes feed. */
export interface TopicStore {
  topic(topic: string): Promise<TopicRecord | null>;
  /**
   * Compare-and-set of a topic's content hash; when it moves, enqueues a delivery for every active
   * subscriber of the topic in the same transaction (the outbox). Returns how many were enqueued, or
   * null when the stored hash was already this one or came from a newer data version.
   */
  recordTopic(record: TopicRecord, now: number): Promise<number | null>;
}

/** The delivery outbox (WebSub §7). */
export interface DeliveryStore {
  claimDueDeliveries(options: ClaimOptions): Promise<ClaimedDelivery[]>;
  /**
   * 2xx answers, in one transaction: each resets its failure count; a delivery is done unless newer
   * content was enqueued meanwhile (then it is due again at once).
   */
  deliveriesSucceeded(items: { delivery: ClaimedDelivery; worker: string; now: number }[]): Promise<void[]>;
  /**
   * A failed attempt: counts it and reschedules at `retryAt(failures)`, or removes the subscription when
   * `failures` reaches `maxFailures`. Null when the claim was lost (nothing counted).
   */
  deliveryFailed(
    delivery: ClaimedDelivery,
    options: { worker: string; now: number; maxFailures: number; retryAt(failures: number): number },
  ): Promise<{ failures: number; removed: boolean } | null>;
  /** Gives a claimed delivery back, due at `dueAt`, without counting an attempt. */
  releaseDelivery(delivery: ClaimedDelivery, worker: string, dueAt: number): Promise<void>;
}

/** Verified subscriptions. */
export interface SubscriptionStore {
  removeSubscription(id: string): Promise<Subscription | null>;
  removeExpired(now: number): Promise<number>;
  listSubscriptions(): Promise<SubscriptionListing[]>;
  /** Gives back every intent and delivery `worker` holds (a graceful stop), due at once. */
  releaseClaims(worker: string): Promise<void>;
}

export type WebSubStore = IntentStore & TopicStore & DeliveryStore & SubscriptionStore;
