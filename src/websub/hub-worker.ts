import type { ClaimedDelivery, Intent, TopicRecord, WebSubStore } from '../domain/websub-ports.js';
import type { CallbackClient } from './callback-client.js';
import type { Clock, HubLogger, Scheduler } from './clock.js';
import { classifyDelivery, notificationHeaders, retryDelayMs } from './delivery.js';
import type { TopicContentSource } from './topic-content.js';
import { createGroupCommit } from './group-commit.js';
import { denialUrl, isConfirmed, newChallenge, verificationUrl } from './verification.js';

/** Contract §6: after 3 consecutive failed attempts the subscription is removed. */
export const MAX_FAILURES = 3;

/** A claim outlives the request's own timeout, so a live worker never loses an item it is sending. */
export function claimLeaseMs(timeoutMs: number): number {
  return timeoutMs + 5000;
}

/**
 * How long the deliveries a replica enqueued (it recorded the new topic bytes first) are left to it
 * before the other replicas claim them too (replicas that do not deliver must not slow those that
 * do). One replica sends a 1,000-subscriber change in well under a second; splitting it
 * three ways made every replica pay its own claims, group commits and TLS writes on the same cores and
 * took 70% longer. Work still due after this long means the enqueuer is behind or gone, and then
 * everyone helps. It also delays taking over a dead replica's lapsed claims by as much.
 */
export const HELP_DELAY_MS = 1000;

export interface HubWorkerOptions {
  store: WebSubStore;
  client: CallbackClient;
  content: TopicContentSource;
  hubUrl: string;
  clock: Clock;
  scheduler: Scheduler;
  logger: HubLogger;
  /** Unique per process: claims carry it. */
  workerId: string;
  concurrency: number;
  timeoutMs: number;
  retryDelaysSeconds: readonly number[];
  /** How often to look for due work that no local event announced (other replicas, retries, crashes). */
  pollMs?: number;
  /** How long deliveries this worker did not enqueue are left to the one that did (HELP_DELAY_MS). */
  helpDelayMs?: number;
  /** How long stop() lets in-flight requests finish before aborting and releasing them. */
  shutdownGraceMs?: number;
  /** Told each delivery's outcome (metrics). */
  onDelivery?: (outcome: 'delivered' | 'gone' | 'failed') => void;
}

export interface HubWorker {
  start(): void;
  /** Look for work now (a new snapshot, a new intent). */
  wake(): void;
  /** Verifies an intent this worker claimed when storing it, as soon as a slot is free (after its 202). */
  verifyClaimed(intent: Intent): void;
  /** Stops claiming; in-flight work finishes or is released; this worker's claims are released. */
  stop(): Promise<void>;
}

/** Everything the worker changes as it runs, named in one place. */
interface WorkerState {
  /** Intents this process claimed when it stored them (before their 202), waiting for a free slot. */
  queued: Intent[];
  /** Requests in flight: verifications, deliveries, denials. At most `concurrency`. */
  jobs: Set<Promise<void>>;
  /** The pass over the store in progress; a wake during it joins it and asks for `again`. */
  pass: Promise<void> | null;
  /** Something arrived during the pass (a wake, a full claim): run one more. */
  again: boolean;
  /** The last claim came back full: more may be due, so a finished job looks for work at once. */
  moreDue: boolean;
  /** When expired subscriptions are next swept (epoch ms). */
  nextSweep: number;
  /**
   * A data version another replica recorded topic content for, newer than this process's: until its own
   * content reaches it, this worker claims no deliveries, so it never holds back those it cannot send.
   */
  behind: number;
  /**
   * This worker enqueued deliveries (or has a retry due) and has not yet run dry: it claims what is
   * due at once. Otherwise it claims only deliveries due for `helpDelayMs` (HELP_DELAY_MS).
   */
  leading: boolean;
  /** stop() was called: claim nothing more. */
  stopping: boolean;
  /** Cancels the next poll. */
  cancelPoll: (() => void) | null;
}

/**
 * The hub's background work: verifications of intent (WebSub §5.3) and content distribution (§7), each
 * item claimed in the store by one worker at a time, with a lease that another worker takes over when it
 * lapses. At most `concurrency` requests are in flight.
 */
export function createHubWorker(o: HubWorkerOptions): HubWorker {
  const pollMs = o.pollMs ?? 1000;
  const claimMs = claimLeaseMs(o.timeoutMs);
  // Claims are taken in batches (a quarter of the slots) and outcomes written by group commit: a fan-out
  // to 1,000 subscribers costs tens of transactions, not thousands (each one an fsync on SQLite).
  const claimBatch = Math.max(1, Math.floor(o.concurrency / 4));
  const completions = createGroupCommit((items: Parameters<WebSubStore['completeIntents']>[0]) => o.store.completeIntents(items));
  const successes = createGroupCommit((items: Parameters<WebSubStore['deliveriesSucceeded']>[0]) => o.store.deliveriesSucceeded(items));
  const shutdown = new AbortController();
  const state: WorkerState = {
    queued: [],
    jobs: new Set(),
    pass: null,
    again: false,
    moreDue: false,
    nextSweep: 0,
    behind: 0,
    leading: false,
    stopping: false,
    cancelPoll: null,
  };
  const { jobs } = state;

  const helpDelayMs = o.helpDelayMs ?? HELP_DELAY_MS;
  const claim = (limit: number) => ({ worker: o.workerId, now: o.clock.now(), claimUntil: o.clock.now() + claimMs, limit });
  // A helper sees the outbox as it was helpDelayMs ago: only deliveries due since then (and claims
  // lapsed since then) are its to take. The claim's own expiry still counts from now.
  const deliveryClaim = (limit: number) => ({ ...claim(limit), now: o.clock.now() - (state.leading ? 0 : helpDelayMs) });
  // What this worker hands back for another replica to send now is backdated past the help delay, so
  // a helper takes it at once too.
  const dueForAnyone = () => o.clock.now() - helpDelayMs;

  function launch(job: () => Promise<void>): void {
    const p = job()
      .catch((err: unknown) => o.logger.error({ err }, 'websub: a hub job failed; its claim lapses and it is retried'))
      .finally(() => {
        jobs.delete(p);
        if (state.stopping) return;
        launchQueued();
        // Only go to the store when it may hold more due work; otherwise the next wake or poll will.
        if (state.moreDue) void pump();
      });
    jobs.add(p);
  }

  async function verify(intent: Intent): Promise<void> {
    const challenge = newChallenge();
    const at = o.clock.now();
    const response = await o.client.get(verificationUrl(intent, challenge), shutdown.signal);
    if (!response.ok && shutdown.signal.aborted) return o.store.releaseIntent(intent.id, o.workerId);
    const verified = isConfirmed(response, challenge);
    await completions.add({ intent, outcome: { verified, worker: o.workerId, now: at } });
    const detail = response.ok ? { status: response.status } : { error: response.error };
    o.logger.info(
      { mode: intent.mode, topic: intent.topic, callback: intent.callback, verified, ...detail },
      'websub: verification of intent',
    );
  }

  async function deliver(d: ClaimedDelivery, stored: TopicRecord | null): Promise<void> {
    const sub = d.subscription;
    if (sub.expiresAt <= o.clock.now()) {
      await o.store.removeSubscription(sub.id); // contract §6: expired subscriptions get nothing
      return;
    }
    // What a GET of the topic serves now (WebSub §7). A newer build known here but not published yet
    // (claimed just before its announcement) is for later: handed back due now, taken again once its
    // snapshot is published, with the bytes a GET then serves.
    if (o.content.version() > o.content.servedVersion()) return o.store.releaseDelivery(d, o.workerId, o.clock.now());
    const content = o.content.content(sub.topic);
    if (!content) return o.store.releaseDelivery(d, o.workerId, o.clock.now() + pollMs);
    if (stored && stored.contentHash !== content.hash && stored.sourceVersion > content.version) {
      // Another replica recorded newer content than this process has: give it back due at once, for a
      // replica that has it (a replica still building must not delay the fan-out of those that
      // are done), and claim no more deliveries until this one's snapshot with that content is published.
      state.behind = Math.max(state.behind, stored.sourceVersion);
      return o.store.releaseDelivery(d, o.workerId, dueForAnyone());
    }
    const headers = notificationHeaders(o.hubUrl, sub.topic, content, sub.secret);
    const response = await o.client.post(sub.callback, content.body, headers, shutdown.signal);
    if (!response.ok && shutdown.signal.aborted) return o.store.releaseDelivery(d, o.workerId, dueForAnyone());
    const outcome = classifyDelivery(response);
    o.onDelivery?.(outcome === 'delivered' || outcome === 'gone' ? outcome : 'failed');
    const detail = { topic: sub.topic, callback: sub.callback, ...(response.ok ? { status: response.status } : { error: response.error }) };
    if (outcome === 'delivered') {
      await successes.add({ delivery: d, worker: o.workerId, now: o.clock.now() });
      o.logger.debug(detail, 'websub: delivered');
    } else if (outcome === 'gone') {
      await o.store.removeSubscription(sub.id);
      o.logger.info(detail, 'websub: callback answered 410 Gone; subscription removed');
    } else {
      const now = o.clock.now();
      const r = await o.store.deliveryFailed(d, {
        worker: o.workerId,
        now,
        maxFailures: MAX_FAILURES,
        retryAt: (failures) => now + retryDelayMs(failures, o.retryDelaysSeconds),
      });
      // Come back when the retry is due, rather than at the next poll after it, and take it then
      // (leading), not a help delay later.
      if (r && !r.removed)
        o.scheduler.setTimeout(
          () => {
            state.leading = true;
            void pump();
          },
          retryDelayMs(r.failures, o.retryDelaysSeconds),
        );
      o.logger.warn({ ...detail, failures: r?.failures }, 'websub: delivery failed');
      if (r?.removed) {
        const reason = `${MAX_FAILURES} consecutive failed deliveries`;
        launch(async () => {
          await o.client.get(denialUrl(sub.callback, sub.topic, reason));
        });
        o.logger.warn(detail, 'websub: subscription removed after repeated failures; denial sent');
      }
    }
  }

  /** Starts intents this process claimed when it stored them, as slots free up (no store round trip). */
  function launchQueued(): void {
    while (state.queued.length > 0 && jobs.size < o.concurrency) {
      const intent = state.queued.shift() as Intent;
      launch(() => verify(intent));
    }
  }

  async function pumpOnce(): Promise<void> {
    do {
      state.again = false;
      if (state.stopping) return;
      if ((await o.content.sync()) > 0) {
        // This process recorded the new bytes first: it sends the change (see HELP_DELAY_MS).
        state.again = true;
        state.leading = true;
      }
      if (o.clock.now() >= state.nextSweep) {
        state.nextSweep = o.clock.now() + 60_000;
        await o.store.removeExpired(o.clock.now());
      }
      launchQueued();
      let free = o.concurrency - jobs.size;
      let full = false;
      if (free > 0) {
        const intents = await o.store.claimDueIntents(claim(free));
        for (const intent of intents) launch(() => verify(intent));
        full = intents.length === free;
      }
      free = o.concurrency - jobs.size;
      // Deliveries carry what the HTTP server serves: none is claimed while this process serves older
      // content than another replica recorded, or than its own build announced (the deliveries that build
      // enqueued are claimed once its snapshot is published: the publication wakes this worker).
      const served = o.content.servedVersion();
      const behind = served < state.behind || served < o.content.version();
      if (!behind && free >= (jobs.size === 0 ? 1 : claimBatch) && !state.stopping) {
        const deliveries = await o.store.claimDueDeliveries(deliveryClaim(free));
        // Run dry: nothing due, nothing in flight (a delivery in flight may yet be handed back due now).
        if (deliveries.length === 0 && jobs.size === 0) state.leading = false;
        const stored = new Map<string, TopicRecord | null>();
        for (const topic of new Set(deliveries.map((d) => d.subscription.topic))) stored.set(topic, await o.store.topic(topic));
        for (const d of deliveries) launch(() => deliver(d, stored.get(d.subscription.topic) ?? null));
        full ||= deliveries.length === free;
        state.moreDue = full;
      } else {
        // Not enough free slots to claim a batch, or content too old to send: whatever was due is still
        // due (a wake when this process publishes its next snapshot comes back for it).
        state.moreDue ||= full;
      }
      if (full) state.again = true;
    } while (state.again && !state.stopping);
  }

  function pump(): Promise<void> {
    if (state.pass) {
      state.again = true;
      return state.pass;
    }
    state.pass = pumpOnce()
      .catch((err: unknown) => o.logger.error({ err }, 'websub: could not read the hub outbox; retrying on the next poll'))
      .finally(() => {
        state.pass = null;
      });
    return state.pass;
  }

  function schedulePoll(): void {
    if (state.stopping) return;
    state.cancelPoll = o.scheduler.setTimeout(() => {
      void pump().finally(schedulePoll);
    }, pollMs);
  }

  return {
    start() {
      void pump();
      schedulePoll();
    },
    wake() {
      if (!state.stopping) void pump();
    },
    verifyClaimed(intent) {
      if (state.stopping) return; // stop() releases this worker's claims: another replica or a restart takes it
      state.queued.push(intent);
      launchQueued();
    },
    async stop() {
      state.stopping = true;
      state.cancelPoll?.();
      const grace = new Promise<void>((resolve) => o.scheduler.setTimeout(resolve, o.shutdownGraceMs ?? 5000));
      if (state.pass) await state.pass;
      await Promise.race([Promise.allSettled([...jobs]), grace]);
      shutdown.abort();
      while (jobs.size > 0) await Promise.allSettled([...jobs]);
      await o.store.releaseClaims(o.workerId);
    },
  };
}
