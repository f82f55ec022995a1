import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { CLI, PACKAGE_ROOT } from './build.js';

/** A free TCP port on 127.0.0.1 (the OS picks; a tiny race with other processes is acceptable in tests). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Replica {
  name: string;
  pid: number;
  port: number;
  origin: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (JSON log lines), for failure messages. */
  output(): string;
  /** SIGKILL: no shutdown hook runs, claims stay until their lease lapses. */
  kill9(): Promise<void>;
  /** SIGTERM and wait for the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
}

function exited(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}

/**
 * Starts `node dist/cli/index.js serve` and waits until it answers HTTP. `nodeArgs` go before the script
 * (benchmarks: `--cpu-prof`, which NODE_OPTIONS does not allow).
 */
export async function startReplica(
  name: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
  nodeArgs: string[] = [],
): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'serve'], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const replica: Replica = {
    name,
    pid: child.pid ?? -1,
    port,
    origin,
    child,
    output: () => out,
    async kill9() {
      child.kill('SIGKILL');
      await exited(child, 5000);
    },
    async stop(ms = 15_000) {
      child.kill('SIGTERM');
      return exited(child, ms);
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`replica ${name} exited with ${child.exitCode}:\n${out}`);
    try {
      const r = await fetch(`${origin}/reviews.json`, { method: 'HEAD' });
      if (r.ok) return replica;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await replica.kill9();
  throw new Error(`replica ${name} did not answer within ${timeoutMs} ms:\n${out}`);
}

/** Runs a CLI command to completion (e.g. `import FILE`), bounded. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const t = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, stdout, stderr });
    });
  });
}

export { CLI, ensureBuilt, PACKAGE_ROOT } from './build.js';
