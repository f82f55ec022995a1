import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, PACKAGE_ROOT as ROOT } from '../support/build.js';
import { cliEnv, startServer, stopAll, type ServerProcess } from '../e2e/processes.js';

/**
 * Every `sh` block of README.md and docs/*.md runs as written against a started server.
 * A block is one bash script; the only rewrite is the port (`127.0.0.1:8080` → the test server's).
 * Markers, an HTML comment on the line before the fence:
 *   <!-- doc-test: skip REASON -->   not run (installs, other servers, long benchmarks); keep these few
 *   <!-- doc-test: synopsis -->      a usage summary: each `npx review-data CMD` line runs as `CMD --help`
 *   <!-- doc-test: continues -->     runs after the previous block of the file, in the same shell
 *   <!-- doc-test: last -->          changes the data, so it runs after every other block
 * Outputs are checked where the docs show them: a trailing `# 304`-style comment (a status code) must
 * appear in the output, and in a `$ command` transcript the first shown output line must begin it.
 * `npm start` lines are dropped: the test has started the server (its time is in docs/benchmarks.md).
 */

interface Block {
  file: string;
  line: number;
  marker: string | null;
  code: string;
}

const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const SHARED = path.resolve(ROOT, '..', 'shared');

function blocksOf(file: string): Block[] {
  const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|console)\s*$/.test(lines[i]!)) continue;
    let above = i - 1;
    while (above > 0 && lines[above] === '') above--;
    const marker = /^<!-- doc-test: (.*?) -->$/.exec(lines[above] ?? '')?.[1] ?? null;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1] !== '```') i++;
    blocks.push({ file, line: start, marker, code: lines.slice(start, i + 1).join('\n') });
    i++;
  }
  return blocks;
}

/** The script of a block, and what its output must show. */
function scriptOf(block: Block, port: number): { script: string; expect: string[] } {
  const expected: string[] = [];
  let lines = block.code.split('\n');
  if (block.marker === 'synopsis') {
    lines = lines.flatMap((l) => {
      const m = /^npx review-data ([a-z-]+)/.exec(l);
      return m ? [`npx review-data ${m[1]} --help > /dev/null`] : [];
    });
  }
  if (lines.some((l) => l.startsWith('$ '))) {
    // A transcript: `$ command` lines run, the first line after each is the start of its output.
    const commands: string[] = [];
    lines.forEach((l, i) => {
      if (!l.startsWith('$ ')) return;
      commands.push(l.slice(2));
      const shown = lines[i + 1];
      if (shown && !shown.startsWith('$ ')) expected.push(shown.trimEnd());
    });
    lines = commands;
  }
  for (const l of lines) {
    const status = /#\s*(\d{3})\b/.exec(l)?.[1];
    if (status) expected.push(status);
  }
  lines = lines.filter((l) => !/^npm start\b/.test(l.trim()));
  const script = ['set -e', ...lines].join('\n').replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`);
  return { script, expect: expected };
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const all = DOCS.flatMap(blocksOf);
const runnable = all.filter((b) => !b.marker?.startsWith('skip'));
const ordered = [...runnable.filter((b) => b.marker !== 'last'), ...runnable.filter((b) => b.marker === 'last')];

// The blocks run in the checkout, as a reader runs them (`npx review-data` resolves this package's own
// bin there), on a database of their own; `init` writes business.json, which is put back afterwards.
const BUSINESS = path.join(ROOT, 'business.json');
let saved: Buffer | null = null;
let server: ServerProcess;
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  await ensureBuilt();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rds-doc-commands-'));
  saved = fs.existsSync(BUSINESS) ? fs.readFileSync(BUSINESS) : null;
  if (saved) fs.rmSync(BUSINESS);
  env = {
    ...cliEnv({ DATABASE_URL: `sqlite:${path.join(tmp, 'reviews.db')}`, DEMO_ON_EMPTY: 'true' }),
    npm_config_update_notifier: 'false',
  };
  server = await startServer(env, 60_000);
}, 240_000);
afterAll(async () => {
  await stopAll();
  if (saved) fs.writeFileSync(BUSINESS, saved);
  else fs.rmSync(BUSINESS, { force: true });
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the commands of README.md and docs/*.md', () => {
  it('are found, and the blocks that are not run say why', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(10);
    for (const b of all.filter((x) => x.marker?.startsWith('skip'))) expect(b.marker, `${b.file}:${b.line}`).toMatch(/^skip \S/);
  });

  const previous = new Map<string, Block>();
  for (const block of ordered) {
    const before = block.marker === 'continues' ? previous.get(block.file) : undefined;
    previous.set(block.file, block);
    it(`${block.file}:${block.line} runs as written`, async (ctx) => {
      if (/\.\.\/shared\//.test(block.code) && !fs.existsSync(SHARED)) {
        if (process.env.CI === 'true') throw new Error(`${SHARED} is missing: CI runs beside ../shared`);
        console.warn(`SKIPPED ${block.file}:${block.line}: it reads ../shared/, which is not beside this checkout`);
        return ctx.skip();
      }
      const port = Number(new URL(server.url).port);
      const prefix = before ? scriptOf(before, port).script + '\n' : '';
      const { script, expect: shown } = scriptOf(block, port);
      const result = await bash(prefix + script, ROOT, env);
      expect(result.code, `${script}\n---\n${result.output}`).toBe(0);
      for (const s of shown) expect(result.output, `${block.file}:${block.line} shows ${s}`).toContain(s);
    }, 300_000);
  }
});
