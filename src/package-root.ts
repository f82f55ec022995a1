import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where the package's files are, for every module that reads one (models, public/, the demo, the
 * insights engine's code) or starts one (the insights worker). Found by walking up from this module to
 * the nearest package.json, so it holds wherever the code runs from: `src/` (tests, tsx), `dist/` as tsc
 * writes it, or a chunk of the bundle in `dist/chunks/` (the built server is bundled, so a
 * module's own `import.meta.url` no longer tells where its source file sits).
 */
function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

const here = fileURLToPath(import.meta.url);

export const PACKAGE_ROOT = findPackageRoot(path.dirname(here));

/** Running from the TypeScript sources (vitest, tsx) rather than the build. */
export const FROM_SOURCE = here.endsWith('.ts');

/**
 * The folder of the code that runs, as a URL with a trailing slash: `src/` from sources, `dist/` from
 * the build, whose tree mirrors `src/` (tsc's output, beside the bundle's entries and chunks).
 */
export const CODE_DIR = pathToFileURL(path.join(PACKAGE_ROOT, FROM_SOURCE ? 'src' : 'dist') + path.sep);

/** A file or folder of the package, as a URL (`packageUrl('models/')`). */
export function packageUrl(relative: string): URL {
  return new URL(relative, pathToFileURL(PACKAGE_ROOT + path.sep));
}
