import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED } from '../../eslint.layers.js';
import { ERROR_CODES, problemType, type ErrorCode } from '../../src/domain/errors.js';

// docs/architecture.md stays true: its error catalogue is the code's, its import table is the lint
// rule's, and every file it points a newcomer to exists.
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

  it('states the import directions the lint rule enforces', () => {
    const rows = tableRows(section('What each folder may import'));
    const documented = Object.fromEntries(
      rows.map(([folder, allowed]) => [
        folder,
        allowed === 'nothing else in `src' ? [] : allowed!.split(/`?, `?/).map((s) => s.replace(/`/g, '')),
      ]),
    );
    expect(documented).toEqual(ALLOWED);
  });

  it('points only to files and folders that exist', () => {
    const paths = [...doc.matchAll(/`((?:src|test|docs)\/[^`\s]*)`/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(20);
    const missing = paths.filter((p) => !fs.existsSync(path.resolve(p)));
    expect(missing).toEqual([]);
  });
});
