import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import type { PublishedView } from '../../domain/published-view.js';
import type { AnalysisCacheStore, StoredAnalysis } from '../../domain/ports.js';
import type { InsightsEngine } from '../../insights/engine.js';
import type { Taxonomy } from '../../insights/taxonomy.js';
import { CODE_DIR, FROM_SOURCE } from '../../package-root.js';
import type { RenderOutput, SlowRenderer } from './document-renderer.js';
import { insightsFingerprint, insightsInputHash } from './insights-input.js';
import type { FromWorker, InsightsReply, InsightsRequest, ToWorker } from './insights-protocol.js';
import { renderShared, type SharedRendering } from './shared-rendering.js';

/** A document already rendered (by an earlier process: the document cache) and the hash of its inputs. */
export interface KnownDocument {
  inputHash: string;
  body: string;
}

export interface InsightsRendererOptions {
  taxonomies: Taxonomy[];
  /** Run the engine in a worker process (the server) or inline (tests, one-shot tools). */
  worker: boolean;
  /**
   * The stored document, asked for at the first rendering (worker only): when the inputs hash to it, the
   * worker is not even started (issue 15). Later renderings compare with the last one.
   */
  known?: () => KnownDocument | undefined;
  /** Where per-review analyses are kept across workers and restarts (worker only; issue 15). */
  analyses?: AnalysisCacheStore;
  /** How long the worker stays after its last answer before it exits and gives its memory back. */
  workerIdleMs?: number;
  /** A failure that costs only speed (reading or writing stored analyses): logged, never fatal. */
  onCacheError?(error: unknown): void;
  /**
   * Replicas on one database (worker only): a rendering that nothing waits for is done by one replica
   * per input, the others take its document from the store (issue 15, fan-out). Absent: every input is
   * rendered here, as a lone process does.
   */
  shared?: SharedRendering;
  /** Each rendering's outcome, for the metrics. */
  onRun?(outcome: InsightsOutcome): void;
}

/** Computed here, skipped (inputs equal to the last document's), or taken from another replica's rendering. */
export type InsightsOutcome = 'computed' | 'unchanged' | 'adopted';

export interface InsightsRenderer extends SlowRenderer {
  close(): Promise<void>;
  /**
   * Renderings the worker computed, those skipped because the inputs were unchanged, workers started
   * (a new one after each idle exit), and reviews analysed afresh or restored from the store in all.
   */
  runs(): InsightsRuns;
}

export interface InsightsRuns {
  computed: number;
  unchanged: number;
  workers: number;
  analyzed: number;
  restored: number;
  adopted: number;
}

/** Stored analyses read and sent to the worker per message. */
const LOOKUP_PART = 2000;

/**
 * Bytes of reviews per message to the worker. The channel serializes each message on the main thread:
 * one message of 70 MB (100k reviews) held it for 160 ms; parts of this size take a few ms each, and
 * the loop runs between them (issue 11 M2).
 */
const REVIEWS_PART = 4 * 1024 * 1024;

/** How long a shutdown waits for the worker to end before killing it outright. */
const WORKER_EXIT_MS = 5000;

/** The worker's memory (a process with the NLP libraries and model, ~150 MB at 10k) is given back after this. */
export const WORKER_IDLE_MS = 10_000;

/**
 * Replicas: how long one without a running worker (seconds of CPU to start) holds back its claim, so that
 * a replica whose worker still runs from the last change renders this one (issue 15, fan-out).
 */
const COLD_CLAIM_DELAY_MS = 250;

function output(view: PublishedView, body: string, inputHash?: string): RenderOutput {
  return { body, lastModified: view.updatedAt, ...(inputHash ? { inputHash } : {}) };
}

/**
 * Starts the worker: a child process, not a thread (issue 15, memory row). A worker thread's memory
 * outlived it: glibc keeps what a thread's arena freed (its trim threshold grows with the largest block
 * freed), so a 10k server idled at 154-161 MB after its first insights against 111-118 MB without them,
 * and a 100k one 130 MB higher; a process gives all of it back when it exits. Built code runs the
 * bundled entry; from TypeScript sources (the test runner) tsx's loader is imported first. The child
 * exits when the channel closes, so it never outlives the server.
 */
function startWorker(taxonomies: Taxonomy[]): ChildProcess {
  const entry = fileURLToPath(new URL(`snapshot/renderers/insights-worker.${FROM_SOURCE ? 'ts' : 'js'}`, CODE_DIR));
  const child = fork(entry, [], {
    // Structured clone over the channel: typed arrays and nested objects arrive as they were sent.
    serialization: 'advanced',
    // The server's flags, but not a debugger's: a second process on the same inspector port fails.
    execArgv: FROM_SOURCE ? ['--import', 'tsx'] : process.execArgv.filter((a) => !a.startsWith('--inspect')),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.send({ type: 'init', taxonomies } satisfies ToWorker);
  return child;
}

/**
 * `/insights.json` (insights.md: part of the snapshot, recomputed whenever the published reviews change).
 * A slow renderer: seconds of work at 10k reviews, so the snapshot is published with the previous
 * insights and the new ones replace them when they land. Inputs that hash to the last (or the stored)
 * document are not computed at all, and the worker is started only for inputs that changed; it exits
 * after `workerIdleMs` without work, and the next one reads the stored analyses back (issue 15).
 * Requests in flight when a new view arrives are answered in order.
 */
export function createInsightsRenderer(options: InsightsRendererOptions): InsightsRenderer {
  const name = 'insights.json';
  if (!options.worker) {
    // The engine (and its NLP libraries, most of a second to load) is imported on first use: the
    // server renders in the worker and never needs it on the main thread.
    let engine: Promise<InsightsEngine> | null = null;
    return {
      kind: 'slow',
      name,
      contentType: JSON_MEDIA_TYPE,
      render: ({ view }) =>
        (engine ??= Promise.all([import('../../insights/engine.js'), import('../../absa-models.js')]).then(([m, models]) =>
          m.createInsightsEngine({ taxonomies: options.taxonomies, models: models.readShippedModels() }),
        )).then((e) => output(view, JSON.stringify(e.compute(view)))),
      close: () => Promise.resolve(),
      runs: () => ({ computed: 0, unchanged: 0, workers: 0, analyzed: 0, restored: 0, adopted: 0 }),
    };
  }

  let worker: ChildProcess | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve(reply: InsightsReply & { ok: true }): void; reject(e: Error): void }>();
  // The last document with its input hash: the stored one until this process renders its own.
  let known: KnownDocument | undefined;
  let askedStore = false;
  let fingerprint: Promise<string> | null = null;
  // After close(): no worker may start again, and a rendering still hashing its inputs is abandoned.
  let closed = false;
  const checkOpen = () => {
    if (closed) throw new Error('insights renderer closed');
  };
  const runs: InsightsRuns = { computed: 0, unchanged: 0, workers: 0, analyzed: 0, restored: 0, adopted: 0 };
  // The newest rendering asked for: a wait for another replica's older document ends when a newer begins.
  let latest = 0;
  // Whether another replica ever rendered or claimed a document this one wanted: until then this
  // process may be alone, and it claims at once, never holding back for a worker elsewhere.
  let othersSeen = false;
  const cacheError = (e: unknown) => options.onCacheError?.(e);

  const failAll = (e: Error) => {
    for (const p of waiting.values()) p.reject(e);
    waiting.clear();
  };

  /** Ends an idle worker; the memory of its process goes back to the system. */
  const retire = () => {
    const w = worker;
    if (!w || waiting.size > 0) return;
    worker = null;
    w.kill();
  };

  /**
   * Sends to the worker; while a rendering waits, the channel keeps the process alive. Resolves once
   * the message is written, so a caller that awaits it lets the loop run between messages.
   */
  const send = (w: ChildProcess, message: ToWorker) =>
    new Promise<void>((resolve) => {
      w.channel?.ref();
      w.send(message, (e) => {
        if (e) w.emit('error', e);
        resolve();
      });
    });

  /**
   * The worker's lookup: stored analyses by key, sent in parts as they are read (one clone of 80 MB at
   * 100k reviews would stop the loop), none when the store fails (only speed is lost).
   */
  const lookup = async (w: ChildProcess, id: number, keys: string[]) => {
    // Stops when that worker is gone (retired, crashed or closed): nobody waits for the rest.
    for (let i = 0; (i < keys.length || i === 0) && worker === w; i += LOOKUP_PART) {
      const part = keys.slice(i, i + LOOKUP_PART);
      const found = options.analyses && part.length > 0 ? await options.analyses.read(part).catch((e: unknown) => (cacheError(e), [])) : [];
      void send(w, { type: 'analyses', id, found, last: i + LOOKUP_PART >= keys.length });
    }
  };

  /** Stores computed analyses, one part after another, under the fingerprint they were computed with. */
  let writing: Promise<void> = Promise.resolve();
  const store = (analyses: StoredAnalysis[]) => {
    const target = options.analyses;
    if (!target || analyses.length === 0) return;
    writing = writing
      .then(() => fingerprint!)
      .then((fp) => target.write(fp, analyses))
      .catch(cacheError);
  };

  const ensureWorker = (): ChildProcess => {
    // A rendering that waited (another replica's claim, say) while the server closed starts nothing.
    checkOpen();
    clearTimeout(idleTimer);
    if (worker) return worker;
    const w = startWorker(options.taxonomies);
    runs.workers += 1;
    w.on('message', (message: FromWorker) => {
      if (message.type === 'lookup') return void lookup(w, message.id, message.keys);
      if (message.type === 'computed') return store(message.analyses);
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (waiting.size === 0) w.channel?.unref();
      if (waiting.size === 0 && worker === w) idleTimer = setTimeout(retire, options.workerIdleMs ?? WORKER_IDLE_MS).unref();
      if (!pending) return;
      if (message.ok) pending.resolve(message);
      else pending.reject(new Error(`insights worker failed: ${message.error}`));
    });
    // A worker that could not start or be reached fails what it held; the next view starts a fresh one.
    w.on('error', (e) => {
      if (worker !== w) return;
      worker = null;
      failAll(e);
      w.kill();
    });
    w.on('exit', () => {
      if (worker !== w) return;
      worker = null;
      failAll(new Error('insights worker exited'));
    });
    w.unref();
    w.channel?.unref();
    worker = w;
    return w;
  };

  /** Renders in the worker (started if needed). */
  const computeHere = async (
    view: PublishedView,
    reviews: Buffer,
    fp: string,
    background: boolean,
  ): Promise<InsightsReply & { ok: true }> => {
    const id = nextId++;
    const request: InsightsRequest = {
      type: 'render',
      id,
      business: view.business,
      updatedAt: view.updatedAt,
      baseUrl: view.urls.base,
      fingerprint: fp,
      persist: options.analyses !== undefined,
      background,
    };
    const w = ensureWorker();
    const reply = new Promise<InsightsReply & { ok: true }>((resolve, reject) => waiting.set(id, { resolve, reject }));
    // Rejected while the parts are still being sent (the worker ended): the caller sees it below.
    reply.catch(() => undefined);
    // The reviews first, in parts straight from the snapshot's bytes (the channel copies them).
    for (let at = 0; at < reviews.length || at === 0; at += REVIEWS_PART) {
      await send(w, { type: 'reviews', id, bytes: reviews.subarray(at, at + REVIEWS_PART) });
      if (worker !== w) break; // it ended meanwhile: `reply` has been rejected
    }
    if (worker === w) void send(w, request);
    return reply.then((r) => {
      runs.computed += 1;
      runs.analyzed += r.analyzed;
      runs.restored += r.restored;
      options.onRun?.('computed');
      return r;
    });
  };

  /** The last document is now this one. One another replica stored is not stored again (no input hash). */
  const landed = (view: PublishedView, inputHash: string, reply: { body: string }, adopted: boolean): RenderOutput => {
    known = { inputHash, body: reply.body };
    if (!adopted) return output(view, reply.body, inputHash);
    runs.adopted += 1;
    options.onRun?.('adopted');
    return output(view, reply.body);
  };

  return {
    kind: 'slow',
    name,
    contentType: JSON_MEDIA_TYPE,
    async render({ view, reviewBytes, slicer, background = false }) {
      const generation = ++latest;
      if (!askedStore) {
        askedStore = true;
        known ??= options.known?.();
      }
      const fp = await (fingerprint ??= insightsFingerprint(options.taxonomies));
      const reviews = reviewBytes.range(0, reviewBytes.count);
      const inputHash = await insightsInputHash(fp, { business: view.business, updatedAt: view.updatedAt, reviews }, slicer);
      checkOpen();
      if (known?.inputHash === inputHash) {
        runs.unchanged += 1;
        options.onRun?.('unchanged');
        return output(view, known.body, inputHash);
      }
      const compute = () => computeHere(view, reviews, fp, background);
      // A cold start's rendering (a request may be waiting for it) is never left to another replica.
      if (!options.shared || !background) return landed(view, inputHash, await compute(), false);
      const shared = await renderShared(
        options.shared,
        name,
        inputHash,
        () => generation === latest && !closed,
        () => compute().then((r) => r.body),
        worker || !othersSeen ? 0 : COLD_CLAIM_DELAY_MS,
      );
      othersSeen ||= shared.contended;
      return landed(view, inputHash, { body: shared.body }, shared.adopted);
    },
    runs: () => ({ ...runs }),
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      const w = worker;
      worker = null;
      failAll(new Error('insights worker closed'));
      if (w && w.exitCode === null && w.signalCode === null) {
        const exited = new Promise((resolve) => w.once('exit', resolve));
        // Held while it ends: with nothing else left on the loop, an unref'd child would let the process
        // exit before this await settles (a shutdown's top-level await, exit code 13).
        w.ref();
        w.kill();
        // A worker that does not end (stopped, say) is killed outright rather than holding the shutdown.
        const force = setTimeout(() => w.kill('SIGKILL'), WORKER_EXIT_MS);
        await exited;
        clearTimeout(force);
      }
      // The analyses already received are stored before the store closes; those of a rendering cut
      // off here are computed again by the next process.
      await writing;
    },
  };
}
