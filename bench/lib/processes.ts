/**
 * Child processes for benchmarks: every server runs in its own process, so it never shares an event loop
 * with the load generator. Each one is stopped by its pid on every exit path.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export const HOST = '127.0.0.1';

/** A port the OS says is free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * How a server child runs: Node flags before its script (the same for every server of a comparison, so
 * that each runs the same runtime) and the CPUs it may use, as `taskset -c` takes them (a load generator
 * kept off the servers' CPUs: pinLoadGenerator below).
 */
export interface Runtime {
  nodeArgs?: readonly string[];
  cpus?: string;
}

/** The command and arguments that run `args` (a script and its arguments) with Node in `runtime`. */
export function nodeCommand(args: readonly string[], runtime: Runtime = {}): { command: string; args: string[] } {
  const node = [...(runtime.nodeArgs ?? []), ...args];
  // taskset execs Node in place: the child's pid stays the server's (its CPU time is read by pid).
  return runtime.cpus
    ? { command: 'taskset', args: ['-c', runtime.cpus, process.execPath, ...node] }
    : { command: process.execPath, args: node };
}

/** The CPUs this process may run on, in order (`Cpus_allowed_list` of /proc/self/status); null without it. */
function allowedCpus(): number[] | null {
  try {
    const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (!list) return null;
    return list.split(',').flatMap((part) => {
      const [from, to = from] = part.split('-').map(Number);
      return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
    });
  } catch {
    return null;
  }
}

/**
 * Keeps this process (the load generator: autocannon runs in it) on the first CPU it may use and
 * returns the others for the servers (`taskset -c` form), or null with a single CPU, without /proc or
 * without taskset. On a machine of few CPUs the kernel and the host move a load generator and a server
 * between them as they please; pinned, each run of a comparison has the same placement. Children started
 * without a Runtime's `cpus` (an import, perf) inherit the load generator's CPU.
 */
export function pinLoadGenerator(): string | null {
  const cpus = allowedCpus();
  if (!cpus || cpus.length < 2) return null;
  const pinned = spawnSync('taskset', ['-a', '-cp', String(cpus[0]), String(process.pid)], { stdio: 'ignore' });
  if (pinned.status !== 0) return null;
  return cpus.slice(1).join(',');
}

export interface Child {
  process: ChildProcess;
  /** Date.now() just before spawn. */
  spawnedAt: number;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<Child>();

export function startChild(command: string, args: string[], env: NodeJS.ProcessEnv, onLine?: (line: string, at: number) => void): Child {
  const spawnedAt = Date.now();
  const proc = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const lines = (chunk: Buffer, into: 'out' | 'err') => {
    const at = Date.now();
    const text = chunk.toString('utf8');
    if (into === 'out') out += text;
    else err += text;
    // Keep what a failure report needs, not a whole log.
    if (out.length > 1e6) out = out.slice(-1e5);
    if (err.length > 1e6) err = err.slice(-1e5);
    if (onLine) for (const line of text.split('\n')) if (line) onLine(line, at);
  };
  proc.stdout.on('data', (c: Buffer) => lines(c, 'out'));
  proc.stderr.on('data', (c: Buffer) => lines(c, 'err'));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const child: Child = {
    process: proc,
    spawnedAt,
    stdout: () => out,
    stderr: () => err,
    async stop(graceMs = 5000) {
      running.delete(child);
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(child);
  return child;
}

/** Stops every child still running (the bench's finally block and signal handlers call this). */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map((c) => c.stop(2000)));
}

/** Runs a command to completion, bounded by `timeoutMs`; rejects with its output on failure. */
export function runToCompletion(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = startChild(command, args, env);
    const timer = setTimeout(() => {
      void child.stop(1000);
      reject(new Error(`${command} ${args.join(' ')} took over ${timeoutMs} ms`));
    }, timeoutMs);
    child.process.once('exit', (code) => {
      clearTimeout(timer);
      running.delete(child);
      if (code === 0) resolve(child.stdout());
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${child.stderr().slice(-2000)}`));
    });
  });
}

/** Polls `url` until it answers 200 or `timeoutMs` passes; returns Date.now() at the first 200. */
export async function waitForOk(url: string, child: Child, timeoutMs: number, intervalMs = 10): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null)
      throw new Error(`process exited early (${child.process.exitCode}):\n${child.stderr().slice(-2000)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(Math.max(1000, deadline - Date.now())) });
      // The status line is what "serving" means; the body of a large document takes its own time.
      const at = Date.now();
      await res.arrayBuffer();
      if (res.status === 200) return at;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms:\n${child.stderr().slice(-2000)}`);
}
