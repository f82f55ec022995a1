import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Runs ES module `code` (TypeScript imports through tsx) in a child Node with `nodeArgs`; its stdout
 * and exit code (null when killed). Stdout goes to a file: V8's %DebugPrint writes through C's stdio,
 * which drops what a full, non-blocking pipe refuses. A child still running after 20 s (within a
 * test's own 30 s, so the test fails on what it printed) is killed.
 */
export async function runModule(code: string, nodeArgs: string[] = []): Promise<{ out: string; exit: number | null }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rds-child-module-'));
  const file = path.join(dir, 'stdout');
  const fd = openSync(file, 'w');
  try {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', code], {
      stdio: ['ignore', fd, 'inherit'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const exit = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    clearTimeout(timer);
    return { out: readFileSync(file, 'utf8'), exit };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}
