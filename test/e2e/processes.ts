import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { CLI, PACKAGE_ROOT as ROOT } from '../support/build.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every process a test started; `stopAll` ends them (by pid), also when a test failed. */
const running = new Set<ChildProcess>();

/** The environment of a CLI run: the test's settings only, nothing inherited that could point elsewhere. */
export function cliEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const { PATH, HOME, TMPDIR, SystemRoot } = process.env;
  return { PATH, HOME, TMPDIR, SystemRoot, LOG_LEVEL: 'warn', DEMO_ON_EMPTY: 'false', ...overrides };
}

/** Runs `node dist/cli/index.js ...args` to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`review-data ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  stop(): Promise<void>;
}

/** A port nobody listens on right now (PORT=0 would not tell us the URL). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** `review-data serve` on a free port; resolves once it answers HTTP. */
export async function startServer(env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [CLI, 'serve'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const server: ServerProcess = { url, child, output: () => ({ stdout, stderr }), stop: () => stopChild(child) };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}\n${stdout}\n${stderr}`);
    try {
      const res = await fetch(`${url}/reviews.json`, { method: 'HEAD' });
      if (res.status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`serve did not answer within ${timeoutMs} ms\n${stdout}\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((c) => stopChild(c)));
  running.clear();
}
