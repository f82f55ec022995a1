import fs from 'node:fs/promises';
import os from 'node:os';

/**
 * The nice value of work nothing waits for: an insights rendering while the
 * previous document is served. In Linux's scheduler (CFS) a nice-10 thread weighs 110 against a nice-0
 * thread's 1024: it gets about a tenth of a core that deliveries or requests also want, and all of an
 * idle one. Not 19: on a host kept busy for minutes, the document should still land within them.
 */
export const BACKGROUND_NICE = 10;

let lowered: Promise<void> | null = null;

/**
 * Lowers the calling thread's CPU priority, once and for good (raising it back takes a privilege): the
 * insights worker process's main thread, where the engine runs (insights-worker.ts). Linux keeps a nice
 * value per thread, so setpriority(2) for "this process" changes the calling thread alone
 * (setpriority(2), BUGS; libuv passes pid 0 through): V8's helper threads, started before, keep theirs,
 * and libuv's pool is started after (below). Elsewhere it would be the whole process's, which was the
 * server when this ran in a worker thread: nothing is done there.
 */
export function lowerThreadPriority(): Promise<void> {
  return (lowered ??= lower());
}

async function lower(): Promise<void> {
  if (process.platform !== 'linux') return;
  // libuv's thread pool serves every thread of the process, and a new thread takes the nice value of the
  // thread that starts it: one request of ours starts the pool first, if nothing has yet.
  await fs.stat(process.execPath).catch(() => undefined);
  try {
    // Never raise it: a process started with a higher nice value keeps it.
    os.setPriority(Math.max(os.getPriority(), BACKGROUND_NICE));
  } catch {
    // Refused (a sandbox): the work runs at normal priority, as before.
  }
}
