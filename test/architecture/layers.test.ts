import fs from 'node:fs';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../../.dependency-cruiser.js';

// `npm run check` runs dependency-cruiser with .dependency-cruiser.js over src, test, bench and scripts.
// These cases run the same rules over a small tree of probe files (inside the project, so that packages
// resolve from its node_modules): each kind of violation is refused, and the imports the architecture
// allows are accepted, so a rule can neither silently stop matching nor refuse a legal import.

/** A module each probe may import, with a value and a type to import from it. */
const STUB = 'export const x = 1;\nexport type T = number;\n';
const TARGETS = [
  'src/http/app.ts',
  'src/http/routes/methods.ts',
  'src/websub/index.ts',
  'src/snapshot/snapshot.ts',
  'src/snapshot/renderers/feeds.ts',
  'src/domain/published-view.ts',
  'src/storage/websub/claim.ts',
  'src/ops/metrics.ts',
  'src/config.ts',
  'src/absa-models.ts',
  'src/site/sitemap.ts',
  'src/absa-tools/train.ts',
  'test/support/fixture.ts',
  'bench/lib/dataset.ts',
];

interface Case {
  file: string;
  code: string;
  /** The rules it breaks; none for an import the architecture allows. */
  breaks: string[];
}

const REFUSED: Case[] = [
  // One direction of data: an import outward, of a value, a type, at run time, re-exported.
  { file: 'src/domain/outward.ts', code: "import { x } from '../http/app.js';", breaks: ['layer-domain'] },
  { file: 'src/mcp/other-transport.ts', code: "import { x } from '../websub/index.js';", breaks: ['layer-mcp'] },
  { file: 'src/websub/other-transport.ts', code: "import { x } from '../http/routes/methods.js';", breaks: ['layer-websub'] },
  { file: 'src/insights/report/type-outward.ts', code: "import type { T } from '../../snapshot/snapshot.js';", breaks: ['layer-insights'] },
  { file: 'src/feeds/dynamic.ts', code: "export const load = () => import('../snapshot/snapshot.js');", breaks: ['layer-feeds'] },
  { file: 'src/site/pages/page.tsx', code: "import { x } from '../../http/app.js';", breaks: ['layer-site'] },
  { file: 'src/site/reexport.ts', code: "export { x } from '../http/app.js';", breaks: ['layer-site'] },
  { file: 'src/snapshot/renderers/up.ts', code: "import type { T } from '../../http/app.js';", breaks: ['layer-snapshot'] },
  { file: 'src/http/routes/store.ts', code: "import { x } from '../../storage/websub/claim.js';", breaks: ['layer-http'] },
  { file: 'src/insights/models.ts', code: "import { x } from '../absa-models.js';", breaks: ['layer-insights'] },
  { file: 'src/config-user.ts', code: "import { x } from './config.js';", breaks: ['unknown-src-folder'] },
  // A layer that may import only types of another: a value import is refused.
  { file: 'src/storage/metrics-value.ts', code: "import { x } from '../ops/metrics.js';", breaks: ['layer-storage-types-only'] },
  { file: 'src/sync/config-value.ts', code: "import { x } from '../config.js';", breaks: ['layer-sync-types-only'] },
  // A folder with no row in the table, from either end.
  { file: 'src/newcomer/thing.ts', code: "import { x } from '../domain/published-view.js';", breaks: ['unknown-src-folder'] },
  {
    file: 'src/cli/to-newcomer.ts',
    code: "import { x } from '../newcomer/thing.js';",
    breaks: ['to-unknown-src-folder', 'layer-cli'],
  },
  // The pure cores: no Node built-in but node:crypto, no I/O package, statically or not.
  { file: 'src/domain/file.ts', code: "import { readFileSync } from 'node:fs';", breaks: ['pure-core-builtins'] },
  { file: 'src/feeds/socket.ts', code: "import http from 'node:http';", breaks: ['pure-core-builtins'] },
  { file: 'src/feeds/unprefixed.ts', code: "import net from 'net';", breaks: ['pure-core-builtins'] },
  { file: 'src/insights/process.ts', code: "export const run = () => import('node:child_process');", breaks: ['pure-core-builtins'] },
  { file: 'src/insights/server.ts', code: "import Fastify from 'fastify';", breaks: ['pure-core-packages'] },
  { file: 'src/domain/database.ts', code: "import type { Kysely } from 'kysely';", breaks: ['pure-core-packages'] },
  { file: 'src/feeds/fetch.ts', code: "export const get = () => import('undici');", breaks: ['pure-core-packages'] },
  // Tests live under test/; the product imports none of their code, nor a benchmark's.
  { file: 'src/http/beside.test.ts', code: "import { it } from 'vitest';\nit.todo('x');", breaks: ['tests-live-in-test'] },
  { file: 'src/snapshot/support-user.ts', code: "import { x } from '../../test/support/fixture.js';", breaks: ['src-not-to-tests'] },
  { file: 'src/cli/bench-user.ts', code: "import { x } from '../../bench/lib/dataset.js';", breaks: ['src-not-to-tests'] },
  // A devDependency is not installed with the package.
  { file: 'src/http/dev-only.ts', code: "import forge from 'node-forge';", breaks: ['src-not-to-dev-dependencies'] },
  // The training tools: only their commands load them, never the server's graph.
  { file: 'src/cli/shared.ts', code: "import { x } from '../absa-tools/train.js';", breaks: ['absa-tools-only-from-its-commands'] },
  {
    file: 'src/snapshot/renderers/trainer.ts',
    code: "import { x } from '../../absa-tools/train.js';",
    breaks: ['layer-snapshot', 'absa-tools-only-from-its-commands'],
  },
  // serve → eval-absa is legal cli → cli, and eval-absa may load the tools: the server's graph reaches them.
  { file: 'src/cli/commands/serve.ts', code: "import { x } from './eval-absa.js';", breaks: ['absa-tools-not-in-server'] },
];

const ACCEPTED: Case[] = [
  { file: 'src/snapshot/inward.ts', code: "import type { T } from '../domain/published-view.js';", breaks: [] },
  { file: 'src/http/routes/inward.ts', code: "import { x } from '../../snapshot/snapshot.js';", breaks: [] },
  { file: 'src/http/routes/lazy-site.ts', code: "export const load = () => import('../../site/sitemap.js');", breaks: [] },
  { file: 'src/snapshot/renderers/models.ts', code: "import { x } from '../../absa-models.js';", breaks: [] },
  { file: 'src/server.ts', code: "import { x } from './http/app.js';", breaks: [] },
  // Resolved paths, not names: storage's own websub/ folder, snapshot's feeds renderer.
  { file: 'src/storage/own-websub.ts', code: "import { x } from './websub/claim.js';", breaks: [] },
  { file: 'src/mcp/feeds-renderer.ts', code: "import { x } from '../snapshot/renderers/feeds.js';", breaks: [] },
  // The types a layer may use without its code.
  { file: 'src/storage/metrics-type.ts', code: "import type { T } from '../ops/metrics.js';", breaks: [] },
  { file: 'src/http/routes/metrics-type.ts', code: "import type { T } from '../../ops/metrics.js';", breaks: [] },
  { file: 'src/websub/config-type.ts', code: "import type { T } from '../config.js';", breaks: [] },
  // The pure cores' hashing and their libraries.
  { file: 'src/domain/hash.ts', code: "import { createHash } from 'node:crypto';", breaks: [] },
  { file: 'src/feeds/xml.ts', code: "import { create } from 'xmlbuilder2';", breaks: [] },
  { file: 'src/insights/schema-user.ts', code: "import { z } from 'zod';", breaks: [] },
  // Tests may import anything in src and their own support; the train command loads its tools.
  {
    file: 'test/http/probe.test.ts',
    code: "import { x } from '../../src/http/app.js';\nimport { x as y } from '../support/fixture.js';\nimport Fastify from 'fastify';",
    breaks: [],
  },
  { file: 'src/cli/commands/train-absa.ts', code: "import { x } from '../../absa-tools/train.js';", breaks: [] },
  { file: 'src/cli/commands/eval-absa.ts', code: "import { x } from '../../absa-tools/train.js';", breaks: [] },
];

const root = path.resolve('.tmp', `depcruise-probe-${process.pid}`);
let result: ICruiseResult;

beforeAll(async () => {
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  for (const target of TARGETS) write(target, STUB);
  for (const { file, code } of [...REFUSED, ...ACCEPTED])
    write(file, `${code}\n${file === 'src/newcomer/thing.ts' ? STUB : 'export {};\n'}`);
  // Which packages are dependencies and which devDependencies is read from the package.json.
  fs.copyFileSync('package.json', path.join(root, 'package.json'));
  const { forbidden, ...rest } = config;
  const { output } = await cruise(['src', 'test', 'bench'], {
    ...config.options,
    ...rest,
    baseDir: root,
    validate: true,
    ruleSet: { forbidden },
    outputType: 'json',
  });
  result = JSON.parse(output as string) as ICruiseResult;
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function broken(file: string): string[] {
  return [...new Set(result.summary.violations.filter((v) => v.from === file).map((v) => v.rule.name))].sort();
}

describe('the architecture rules (.dependency-cruiser.js, docs/architecture.md)', () => {
  it.each(REFUSED.map((c) => [c.file, c.code, c.breaks] as const))('%s refuses %s', (file, _code, breaks) => {
    expect(broken(file)).toEqual([...breaks].sort());
  });

  it.each(ACCEPTED.map((c) => [c.file, c.code] as const))('%s accepts %s', (file) => {
    expect(broken(file)).toEqual([]);
  });

  it('cruised every probe', () => {
    const cruised = new Set(result.modules.map((m) => m.source));
    expect([...REFUSED, ...ACCEPTED].map((c) => c.file).filter((f) => !cruised.has(f))).toEqual([]);
  });
});
