import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StoredAnalysis } from '../../domain/ports.js';
import type { Taxonomy } from '../../insights/taxonomy.js';
import { CODE_DIR, FROM_SOURCE } from '../../package-root.js';
import type { FromWorker, InsightsReply, InsightsRequest, ToWorker } from './insights-protocol.js';

/**
 * Bytes of reviews per message to the worker. The channel serializes each message on the main thread:
 * one message of 70 MB (100k reviews) held it for 160 ms; parts of this size take a few ms each, and
 * the loop runs between them.
 */
const REVIEWS_PART = 4 * 1024 * 1024;

/** How long a shutdown waits for the worker to end before killing it outright. */
const WORKER_EXIT_MS = 5000;

/** The worker's memory (a process with the NLP libraries and model, ~150 MB at 10k) is given back after this. */
export const WORKER_IDLE_MS = 10_000;

export type RenderReply = Extract<InsightsReply, { ok: true }>;

/** What the worker asks of the main thread, which holds the database. */
export interface WorkerHost {
  /**
   * Stored analyses for `keys`, answered through `answer` in parts (the last with `last: true`);
   * `alive` turns false when the asking worker is gone, and nobody waits for the rest.
   */
  lookup(keys: string[], answer: (found: StoredAnalysis[], last: boolean) => void, alive: () => boolean): Promise<void>;
  /** Analyses the worker computed, to be stored. */
  computed(analyses: StoredAnalysis[]): void;
}

export interface WorkerClientOptions {
  taxonomies: Taxonomy[];
  host: WorkerHost;
  /** How long the worker stays after its last answer before it exits and gives its memory back. */
  idleMs?: number;
}

/** The insights worker process as the renderer sees it: one request at a time in, one document out. */
export interface WorkerClient {
  /** Sends the reviews (in parts) and the request; a worker is started if none runs. */
  render(request: Omit<InsightsRequest, 'type' | 'id'>, reviews: Buffer): Promise<RenderReply>;
  /** Whether a worker process runs now (started, not yet idle-retired). */
  running(): boolean;
  /** Workers started so far (a new one after each idle exit). */
  started(): number;
  /** Ends the worker (killed outright if it does not end in time); no worker starts after. */
  close(): Promise<void>;
}

/**
 * Starts the worker: a child process, not a thread. A worker thread's memory outlived it: glibc keeps
 * what a thread's arena freed (its trim threshold grows with the largest block freed), so a 10k server
 * idled at 154-161 MB after its first insights against 111-118 MB without them; a process gives all of
 * it back when it exits. Built code runs the bundled entry; from TypeScript sources (the test runner)
 * tsx's loader is imported first. The child exits when the channel closes, so it never outlives the server.
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
 * Sends to a worker; while a rendering waits, the channel keeps the process alive. Resolves once the
 * message is written, so a caller that awaits it lets the loop run between messages.
 */
function send(w: ChildProcess, message: ToWorker): Promise<void> {
  return new Promise<void>((resolve) => {
    w.channel?.ref();
    w.send(message, (e) => {
      if (e) w.emit('error', e);
      resolve();
    });
  });
}

interface Waiting {
  resolve(reply: RenderReply): void;
  reject(e: Error): void;
}

/**
 * The worker process, its protocol (insights-protocol.ts) and its life: started on demand, ended after
 * `idleMs` without work, replaced after a crash. Requests are answered in order.
 */
export function createWorkerClient(options: WorkerClientOptions): WorkerClient {
  let worker: ChildProcess | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  let started = 0;
  let closed = false;
  const waiting = new Map<number, Waiting>();

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

  const onMessage = (w: ChildProcess, message: FromWorker) => {
    if (message.type === 'lookup') {
      const answer = (found: StoredAnalysis[], last: boolean) => void send(w, { type: 'analyses', id: message.id, found, last });
      return void options.host.lookup(message.keys, answer, () => worker === w);
    }
    if (message.type === 'computed') return options.host.computed(message.analyses);
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (waiting.size === 0) w.channel?.unref();
    if (waiting.size === 0 && worker === w) idleTimer = setTimeout(retire, options.idleMs ?? WORKER_IDLE_MS).unref();
    if (!pending) return;
    if (message.ok) pending.resolve(message);
    else pending.reject(new Error(`insights worker failed: ${message.error}`));
  };

  const ensureWorker = (): ChildProcess => {
    // A rendering that waited (another replica's claim, say) while the server closed starts nothing.
    if (closed) throw new Error('insights renderer closed');
    clearTimeout(idleTimer);
    if (worker) return worker;
    const w = startWorker(options.taxonomies);
    started += 1;
    w.on('message', (message: FromWorker) => onMessage(w, message));
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

  return {
    running: () => worker !== null,
    started: () => started,
    async render(request, reviews) {
      const id = nextId++;
      const w = ensureWorker();
      const reply = new Promise<RenderReply>((resolve, reject) => waiting.set(id, { resolve, reject }));
      // Rejected while the parts are still being sent (the worker ended): the caller sees it below.
      reply.catch(() => undefined);
      // The reviews first, in parts straight from the snapshot's bytes (the channel copies them).
      for (let at = 0; at < reviews.length || at === 0; at += REVIEWS_PART) {
        await send(w, { type: 'reviews', id, bytes: reviews.subarray(at, at + REVIEWS_PART) });
        if (worker !== w) break; // it ended meanwhile: `reply` has been rejected
      }
      if (worker === w) void send(w, { ...request, type: 'render', id });
      return reply;
    },
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      const w = worker;
      worker = null;
      failAll(new Error('insights worker closed'));
      if (!w || w.exitCode !== null || w.signalCode !== null) return;
      const exited = new Promise((resolve) => w.once('exit', resolve));
      // Held while it ends: with nothing else left on the loop, an unref'd child would let the process
      // exit before this await settles (a shutdown's top-level await, exit code 13).
      w.ref();
      w.kill();
      // A worker that does not end (stopped, say) is killed outright rather than holding the shutdown.
      const force = setTimeout(() => w.kill('SIGKILL'), WORKER_EXIT_MS);
      await exited;
      clearTimeout(force);
    },
  };
}
