/**
 * The allowed import directions between the folders of src/ (docs/architecture.md, README "Layout"),
 * enforced by ESLint's no-restricted-imports in `npm run check`. Data flows one way:
 * store → snapshot → renderers → transports; the pure cores (domain, insights, feeds) import nothing above
 * them, and no transport imports another. Tests beside the code may cross layers (they wire real pieces).
 */

/** Every top-level module of src/ that a layer may be forbidden to import. */
const MODULES = [
  'domain',
  'insights',
  'feeds',
  'storage',
  'import',
  'snapshot',
  'http',
  'site',
  'mcp',
  'websub',
  'cli',
  'server',
  'config',
  'taxonomy-file',
  'absa-models',
  'package-root',
  'absa-tools',
];

/** folder → the folders (besides itself) it may import. Anything not listed is refused. */
export const ALLOWED = {
  domain: [],
  insights: ['domain'],
  feeds: ['domain'],
  storage: ['domain'],
  import: ['domain'],
  snapshot: ['domain', 'insights', 'feeds', 'absa-models', 'package-root'],
  site: ['domain', 'snapshot', 'insights', 'feeds', 'package-root'],
  http: ['domain', 'snapshot', 'insights', 'feeds', 'site'],
  mcp: ['domain', 'snapshot', 'insights'],
  websub: ['domain', 'snapshot', 'config'],
  // Training and evaluation of the ABSA models: the train-absa and eval-absa commands only, never the server.
  'absa-tools': ['domain', 'insights'],
};

/** Packages that do I/O or serve requests: never in the pure cores. */
const IO_PACKAGES = ['fastify', '@fastify/*', 'kysely', 'pg', 'better-sqlite3', 'undici', '@modelcontextprotocol/*'];
const PURE = new Set(['domain', 'insights', 'feeds']);

function refused(folder) {
  const allowed = new Set([folder, ...ALLOWED[folder]]);
  // A relative import of another top-level module: `../http/app.js`, `../../config.js`, ...
  const group = MODULES.filter((m) => !allowed.has(m)).flatMap((m) => [`**/${m}/**`, `**/${m}.js`]);
  return group;
}

export const layerRules = Object.keys(ALLOWED).map((folder) => ({
  files: [`src/${folder}/**/*.{ts,tsx}`],
  ignores: ['src/**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: refused(folder),
            message: `${ALLOWED[folder].length ? `src/${folder} may import only ${ALLOWED[folder].join(', ')}` : `src/${folder} imports nothing else in src`} (docs/architecture.md: one direction of data).`,
          },
          ...(PURE.has(folder) ? [{ group: IO_PACKAGES, message: `src/${folder} is pure: no I/O or server packages.` }] : []),
        ],
      },
    ],
  },
}));
