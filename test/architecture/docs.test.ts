import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_BUILTINS, CORE_PACKAGES, LAYERS, PURE_CORES } from '../../.dependency-cruiser.js';
import { ERROR_CODES, problemType, type ErrorCode } from '../../src/domain/errors.js';

// docs/architecture.md stays true: its error catalogue is the code's, its import tables are the
// architecture rules' (.dependency-cruiser.js), "Where things live" names every folder and top-level
// module of src, and every file it points a newcomer to exists.
const doc = fs.readFileSync(path.resolve('docs/architecture.md'), 'utf8');

function section(title: string): string {
  const start = doc.indexOf(`## ${title}`);
  expect(start, `section ${title}`).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim().replace(/^`|`$/g, '')),
    );
}

describe('docs/architecture.md', () => {
  it('lists every error code with its status, title and problem type, and nothing else', () => {
    const rows = tableRows(section('Error catalogue'));
    const expected = Object.entries(ERROR_CODES).map(([code, { status, title }]) => [
      code,
      String(status),
      title,
      problemType(code as ErrorCode),
    ]);
    expect(rows).toEqual(expected);
  });

  /** A cell's backticked names: "`domain`, `insights`" → ["domain", "insights"]; "nothing else in `src`" → []. */
  const names = (cell: string | undefined) =>
    cell === undefined || cell.startsWith('nothing') ? [] : [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

  function rawRows(text: string): string[][] {
    return text
      .split('\n')
      .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
      .map((line) =>
        line
          .slice(1, -1)
          .split('|')
          .map((cell) => cell.trim()),
      );
  }

  it('states the import directions the architecture rules enforce, for every folder and module', () => {
    const [table] = section('What each folder may import')
      .split('\n\n')
      .filter((p) => p.startsWith('| folder'));
    const documented = Object.fromEntries(
      rawRows(table!)
        .slice(1)
        .map(([unit, imports, types]) => [
          names(unit)[0],
          { imports: names(imports), ...(names(types).length ? { types: names(types) } : {}) },
        ]),
    );
    expect(documented).toEqual(LAYERS);
  });

  it('states what the pure cores may use', () => {
    const [table] = section('What each folder may import')
      .split('\n\n')
      .filter((p) => p.startsWith('| the pure cores'));
    const rows = Object.fromEntries(rawRows(table!).map(([what, cell]) => [what, names(cell)]));
    expect(rows).toEqual({ 'the pure cores': PURE_CORES, 'Node built-ins': CORE_BUILTINS, packages: CORE_PACKAGES });
  });

  it('says where every folder and top-level module of src is', () => {
    const where = section('Where things live');
    const named = new Set([...where.matchAll(/`(src\/[^`\s]*)`/g)].map((m) => m[1]!));
    // A folder is found by its own path or a file directly in it; folders that hold no code (test data) need no row.
    const mentioned = (dir: string) => named.has(`${dir}/`) || [...named].some((p) => path.posix.dirname(p) === dir && !p.endsWith('/'));
    const folders: string[] = [];
    const walk = (dir: string) => {
      const entries = fs.readdirSync(dir, { withFileTypes: true });
      if (entries.some((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))) folders.push(dir);
      for (const e of entries) if (e.isDirectory()) walk(`${dir}/${e.name}`);
    };
    for (const e of fs.readdirSync('src', { withFileTypes: true })) if (e.isDirectory()) walk(`src/${e.name}`);
    const modules = fs
      .readdirSync('src')
      .filter((f) => /\.tsx?$/.test(f))
      .map((f) => `src/${f}`);
    expect(folders.length).toBeGreaterThan(20);
    expect(folders.filter((d) => !mentioned(d))).toEqual([]);
    expect(modules.filter((m) => !named.has(m))).toEqual([]);
  });

  it('points only to files and folders that exist', () => {
    const paths = [
      ...doc.matchAll(/`((?:src|test|docs|bench|scripts)\/[^`\s]*|\.dependency-cruiser\.js|knip\.jsonc|tsconfig\.build\.json)`/g),
    ].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(20);
    const missing = paths.filter((p) => !fs.existsSync(path.resolve(p)));
    expect(missing).toEqual([]);
  });
});
