// The `review-data` bin is dist/cli/index.js, which `npx review-data` runs as a program: tsc writes it
// without the executable bit, and npm sets that bit only when it links bins, which for this package's
// own bin can happen before `prepare` has built it (a fresh clone's `npm ci`: "Permission denied").
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export function markExecutable(root) {
  const cli = path.join(root, 'dist', 'cli', 'index.js');
  if (fs.existsSync(cli)) fs.chmodSync(cli, 0o755);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  markExecutable(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
}
