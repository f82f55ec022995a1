import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const CLI = path.join(ROOT, 'dist', 'cli', 'index.js');
const LOCK = path.join(ROOT, '.tmp', 'e2e-build.lock');
// A lock older than this belongs to a run that died; builds take seconds.
const STALE_LOCK_MS = 5 * 60_000;

async function newestSourceMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    newest = Math.max(newest, (await fs.stat(path.join(entry.parentPath, entry.name))).mtimeMs);
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
      const age = await fs.stat(LOCK).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await fs.rm(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${LOCK}`, { cause: e });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * `npm run build` (tsc -p tsconfig.build.json), once: test files that run in parallel take a lock, and
 * the ones that get it after a build find dist/ newer than src/ and skip. Type errors in files being
 * edited elsewhere still emit JavaScript; only a missing CLI fails the suite.
 */
export async function buildOnce(timeoutMs = 180_000): Promise<void> {
  await acquire(timeoutMs);
  try {
    const built = await fs.stat(CLI).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    if (built > (await newestSourceMtime(path.join(ROOT, 'src')))) return;
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const t = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('exit', (code) => {
        clearTimeout(t);
        resolve({ code, out });
      });
    });
    const exists = await fs.stat(CLI).then(
      () => true,
      () => false,
    );
    if (!exists) throw new Error(`npm run build produced no ${CLI} (exit ${result.code}):\n${result.out}`);
    if (result.code !== 0) console.warn(`npm run build reported errors (exit ${result.code}); testing what it emitted:\n${result.out}`);
  } finally {
    await fs.rm(LOCK, { recursive: true, force: true });
  }
}
