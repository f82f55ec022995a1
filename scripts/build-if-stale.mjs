// `npm start`'s prestart: compile only when a source is newer than the last build.
// `tsc -b` can decide this too, but loading the compiler to find nothing to do costs ~0.7 s of a
// 2 s start budget; comparing modification times costs a few milliseconds.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** tsc writes this on every build (tsconfig.build.json: incremental). */
const stamp = path.join(root, 'dist', '.tsbuildinfo');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/build.mjs'].map((p) => path.join(root, p));

function newestMtime(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  return newest;
}

const built = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (built === 0 || inputs.some((p) => newestMtime(p) > built)) {
  process.stderr.write(built === 0 ? 'building (no dist/ yet) ...\n' : 'sources changed since the last build: building ...\n');
  // `npm run build`'s steps (tsc, the bundle), loaded only when there is something to build.
  const { build } = await import('./build.mjs');
  const status = await build(root);
  if (status !== 0) process.exit(status);
}
