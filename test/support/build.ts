import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built CLI that end-to-end tests spawn; REVIEW_DATA_CLI points them at another build. */
export const CLI = process.env.REVIEW_DATA_CLI ?? path.join(PACKAGE_ROOT, 'dist', 'cli', 'index.js');
const LOCK = path.join(PACKAGE_ROOT, '.tmp', 'e2e-build.lock');
// A lock older than this belongs to a run that died; builds take seconds.
const STALE_LOCK_MS = 5 * 60_000;

const mtime = (file: string) =>
  fs.stat(file).then(
    (s) => s.mtimeMs,
    () => 0,
  );

async function newestSourceMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, await mtime(path.join(entry.parentPath, entry.name)));
  }
  return newest;
}

async function acquire(timeoutMs: number): Promise<void> {
  await fs.mkdir(path.dirname(LOCK), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fs.mkdir(LOCK);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (Date.now() - (await mtime(LOCK)) > STALE_LOCK_MS) await fs.rm(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${LOCK}`, { cause: e });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * `npm run build` (scripts/build.mjs) when dist/ is missing or older than src/, once: test
 * files running in parallel take a lock, and those that get it after a build find dist/ fresh. An
 * incremental build rewrites only changed outputs, so the build info's time counts as the build's.
 */
export async function ensureBuilt(timeoutMs = 180_000): Promise<void> {
  if (process.env.REVIEW_DATA_CLI) return;
  await acquire(timeoutMs);
  try {
    const cliTime = await mtime(CLI);
    const built = cliTime === 0 ? 0 : Math.max(cliTime, await mtime(path.join(PACKAGE_ROOT, 'dist', '.tsbuildinfo')));
    if (built > (await newestSourceMtime(path.join(PACKAGE_ROOT, 'src')))) return;
    // The same build as `npm run build`: tsc, then the bundle the CLI runs from.
    const build = path.join(PACKAGE_ROOT, 'scripts', 'build.mjs');
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [build], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const t = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('exit', (code) => {
        clearTimeout(t);
        resolve({ code, out });
      });
    });
    if (result.code !== 0) throw new Error(`npm run build failed (exit ${result.code}):\n${result.out}`);
  } finally {
    await fs.rm(LOCK, { recursive: true, force: true });
  }
}
