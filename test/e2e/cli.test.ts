import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_KEYS, flagName } from '../../src/config.js';
import type { Review } from '../../src/domain/review.js';
import { fixtureImportDocument, MARKERS, UNPUBLISHED_IDS, writeFixtureImportFile } from '../support/fixture.js';
import { ordered, publishedReviews } from '../http/expected.js';
import { ensureBuilt, PACKAGE_ROOT as ROOT } from '../support/build.js';
import { cliEnv, runCli, startServer, stopAll, type CliResult, type ServerProcess } from './processes.js';

/**
 * The built CLI as outside tools drive it (contract §1, §3): real subprocesses, a real SQLite file,
 * HTTP over a socket. Every process is stopped and every temporary directory removed, also on failure.
 */

let tmp: string;
let env: NodeJS.ProcessEnv;
let server: ServerProcess;
let invalidRun: CliResult;
const published = publishedReviews();
const BASE_URL = 'http://reviews.e2e.test';

interface Dataset {
  business: { id: string };
  aggregate_rating: { review_count: number };
  reviews: (Review & { hidden?: boolean })[];
}

const SUMMARY = /(\d+) added, (\d+) updated, (\d+) unchanged, (\d+) deleted, (\d+) unpublished/;
function summary(stdout: string) {
  const m = SUMMARY.exec(stdout);
  expect(m, stdout).not.toBeNull();
  const [added, updated, unchanged, deleted, unpublished] = m!.slice(1).map(Number);
  return { added, updated, unchanged, deleted, unpublished };
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${url}`, { headers });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

/** Polls until `check` holds or `ms` pass; returns the elapsed time. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - start;
}

const file = (name: string) => path.join(tmp, name);

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-e2e-cli-'));
  // A fixed public origin (never contacted), so that servers on different ports print the same bytes.
  env = cliEnv({ DATABASE_URL: `sqlite:${path.join(tmp, 'db.sqlite')}`, BASE_URL });
  await ensureBuilt();
}, 180_000);

afterAll(async () => {
  await stopAll();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('import, then serve', () => {
  it('imports the fixture dataset document and reports what it did', async () => {
    const r = await runCli(['import', await writeFixtureImportFile(file('fixture.json'))], env);
    expect(r.code, r.stderr).toBe(0);
    expect(summary(r.stdout)).toEqual({ added: published.length + 2, updated: 0, unchanged: 0, deleted: 0, unpublished: 2 });
  }, 60_000);

  it('serves the imported data over HTTP', async () => {
    // As `npm start` runs it: the demo loader is on, and must leave this database alone (checked below).
    server = await startServer({ ...env, DEMO_ON_EMPTY: 'true', LOG_LEVEL: 'info' });
    const a = await get('/reviews.json');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(a.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(a.headers.get('link')).toBe(`<${BASE_URL}/api/websub/hub>; rel="hub", <${BASE_URL}/reviews.json>; rel="self"`);
    const body = JSON.parse(a.body) as Dataset;
    expect(body.business.id).toBe('peak-plumbing');
    expect(body.aggregate_rating.review_count).toBe(published.length);
    expect(body.reviews.map((r) => r.id)).toEqual(ordered(published));
    const r04 = body.reviews.find((r) => r.id === 'r04');
    expect(r04?.text).toBe(published.find((r) => r.id === 'r04')?.text);
    for (const marker of [...Object.values(MARKERS), ...UNPUBLISHED_IDS]) expect(a.body).not.toContain(marker);

    // It says where everything is (contract §1), at BASE_URL.
    const printed = server.output().stdout;
    for (const p of [
      '/reviews.json',
      '/insights.json',
      '/api/reviews/search',
      '/api/reviews/since/',
      '/api/feed.json',
      '/feed.xml',
      '/api/websub/hub',
      '/mcp',
      '/.well-known/openapi.json',
    ]) {
      expect(printed).toContain(`${BASE_URL}${p}`);
    }
    const openapi = JSON.parse((await get('/.well-known/openapi.json')).body) as { servers: { url: string }[] };
    expect(openapi.servers).toEqual([{ url: BASE_URL }]);

    const search = await get('/api/reviews/search?rating=5&limit=3');
    expect(search.status).toBe(200);
    expect(JSON.parse(search.body)).toMatchObject({
      count: 3,
      total: published.filter((r) => r.rating === 5).length,
      filters: { rating: 5 },
    });
    const bad = await get('/api/reviews/search?limit=500');
    expect(bad.status).toBe(400);
    expect((JSON.parse(bad.body) as { issues: { path: string[] }[] }).issues[0]?.path).toEqual(['limit']);
    const notModified = await get('/reviews.json', { 'if-none-match': a.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe('');
    const feed = await get('/feed.xml');
    expect(feed.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(feed.body).toMatch(new RegExp(`<link (?=[^>]*rel="self")(?=[^>]*href="${BASE_URL.replaceAll('.', '\\.')}/feed\\.xml")`));
  }, 60_000);

  it('picks up an import made by another process within 2 seconds, with a new ETag', async () => {
    const before = await get('/reviews.json');
    const etag = before.headers.get('etag')!;
    const record = fixtureImportDocument().reviews.find((r) => r.id === 'r01')!;
    await fs.writeFile(
      file('change.jsonl'),
      JSON.stringify({ ...record, text: 'Changed by a second process.', updated_at: undefined }) + '\n',
    );
    const r = await runCli(['import', file('change.jsonl')], env);
    expect(r.code, r.stderr).toBe(0);
    expect(summary(r.stdout)).toMatchObject({ added: 0, updated: 1, unchanged: 0 });
    const imported = Date.now();
    let after = before;
    await eventually(async () => {
      after = await get('/reviews.json');
      return after.headers.get('etag') !== etag;
    }, 3000);
    expect(Date.now() - imported).toBeLessThan(3000);
    expect(after.body).toContain('Changed by a second process.');
    const review = JSON.parse((await get('/api/reviews/r01')).body) as { review: Review };
    expect(review.review.text).toBe('Changed by a second process.');
    expect(Date.parse(review.review.updated_at)).toBeGreaterThan(Date.parse(String(record.updated_at)));
    expect((await get('/reviews.json', { 'if-none-match': etag })).status).toBe(200);
  }, 60_000);
});

describe('invalid imports write nothing', () => {
  it('lists every problem with its file, record or line number, id and field, and exits 1', async () => {
    const before = await get('/reviews.json');
    const valid = { date: '2025-01-01', rating: 5, text: 'fine', author: { name: 'A' }, verified: true };
    await fs.writeFile(
      file('invalid.json'),
      JSON.stringify([
        { ...valid, id: 'new-valid-1' },
        { ...valid, id: 'bad-rating', rating: 7 },
        { ...valid, id: 'bad-author', author: {} },
        { ...valid, id: 'bad-date', date: '2025-02-30' },
        { ...valid, id: 'r02', text: 'an update that must not be written' },
      ]),
    );
    const ok = JSON.stringify({ ...valid, id: 'j1' });
    const bad = JSON.stringify({ ...valid, id: 'j3', rating: 0 });
    await fs.writeFile(file('bad.jsonl'), `${ok}\n\n{"id":"j2", broken\n${bad}\n`);
    const header = 'id,date,rating,text,author.name,verified\n';
    await fs.writeFile(
      file('bad.csv'),
      `${header}csv-ok,2025-04-01,4,"two\nlines",Ann,yes\ncsv-bad,2025-04-02,9,text,Bob,no\ncsv-bad2,2025-04-02,3,text,Bob,maybe\n`,
    );
    await fs.writeFile(file('multiline.csv'), `${header}csv-multi,2025-04-01,8,"first line\nsecond line",Ann,yes\n`);

    // One run over every file: all of them are validated before anything is written.
    const r = await runCli(['import', file('invalid.json'), file('bad.jsonl'), file('bad.csv'), file('multiline.csv')], env);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(SUMMARY);
    const problems = (name: string) => r.stderr.split('\n').filter((l) => l.includes(`${name}:`));

    const json = problems('invalid.json');
    expect(json).toHaveLength(3);
    expect(json[0]).toMatch(/record 2\b.*bad-rating.*\brating\b/);
    expect(json[1]).toMatch(/record 3\b.*bad-author.*\bauthor\.name\b/);
    expect(json[2]).toMatch(/record 4\b.*bad-date.*\bdate\b/);

    // JSON Lines: line numbers of the file, blank lines counted.
    const jsonl = problems('bad.jsonl');
    expect(jsonl).toHaveLength(2);
    expect(jsonl[0]).toMatch(/line 3\b/);
    expect(jsonl[1]).toMatch(/line 4\b.*j3.*\brating\b/);

    // CSV: line numbers of the file, after a record whose quoted text spans two lines.
    const csv = problems('bad.csv');
    expect(csv).toHaveLength(2);
    expect(csv[0]).toMatch(/line 4\b.*csv-bad\b.*\brating\b/);
    expect(csv[1]).toMatch(/line 5\b.*csv-bad2.*\bverified\b/);

    // Nothing changed: not the valid new records, not the valid update.
    await new Promise((res) => setTimeout(res, 1500));
    const after = await get('/reviews.json');
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    for (const id of ['new-valid-1', 'j1', 'csv-ok']) expect((await get(`/api/reviews/${id}`)).status).toBe(404);
    expect(after.body).not.toContain('must not be written');
    invalidRun = r;
  }, 60_000);

  it('names a CSV record that spans lines by the line it starts on', () => {
    // multiline.csv: the record starts on line 2; line 3 is the middle of its quoted text.
    const lines = invalidRun.stderr.split('\n').filter((l) => l.includes('multiline.csv:'));
    expect(lines).toEqual([expect.stringMatching(/line 2\b.*csv-multi/)]);
  }, 60_000);
});

describe('CSV import', () => {
  it('reads dotted columns, quoted cells, ;-lists, empty cells as absent and yes/no booleans', async () => {
    const csv = [
      'id,date,rating,title,text,language,author.name,author.location,source.platform,verified,hidden,mentions.technicians,mentions.services',
      'csv-1,2025-04-01,4,,"Quoted, with ""quotes"" and a\nnewline",,Ann,,yelp,yes,no,mike-r; ann-l,drain-cleaning',
      'csv-2,2025-04-02,2,Hidden one,text,en,Bob,Taos,google,YES,yes,,',
      'csv-3,2025-04-03,5,Unverified,text,en,Cy,,google,no,0,,',
      'csv-4,2025-04-04,3,Numeric flags,plain text,en,Di,Santa Fe,google,1,0,,',
    ].join('\r\n');
    await fs.writeFile(file('reviews.csv'), csv + '\r\n');
    const r = await runCli(['import', file('reviews.csv')], env);
    expect(r.code, r.stderr).toBe(0);
    expect(summary(r.stdout)).toMatchObject({ added: 4, unpublished: 2 });
    await eventually(async () => (await get('/api/reviews/csv-1')).status === 200, 3000);
    const one = (JSON.parse((await get('/api/reviews/csv-1')).body) as { review: Review }).review;
    expect(one).toMatchObject({
      title: null,
      text: 'Quoted, with "quotes" and a\nnewline',
      language: null,
      author: { name: 'Ann', location: null },
      source: { platform: 'yelp', url: null },
      verified: true,
    });
    expect(one.mentions.technicians.map((t) => t.id)).toEqual(['mike-r', 'ann-l']);
    expect(one.mentions.services.map((s) => s.id)).toEqual(['drain-cleaning']);
    expect((await get('/api/reviews/csv-2')).status).toBe(404);
    expect((await get('/api/reviews/csv-3')).status).toBe(404);
    expect((JSON.parse((await get('/api/reviews/csv-4')).body) as { review: Review }).review.author.location).toBe('Santa Fe');
  }, 60_000);
});

describe('export', () => {
  it('writes the /reviews.json shape to stdout and FILE; --all adds unpublished records with their flags', async () => {
    const served = JSON.parse((await get('/reviews.json')).body) as Dataset;
    const toStdout = await runCli(['export'], env);
    expect(toStdout.code, toStdout.stderr).toBe(0);
    const exported = JSON.parse(toStdout.stdout) as Dataset;
    expect(Object.keys(exported).sort()).toEqual(Object.keys(served).sort());
    expect(exported.business).toEqual(served.business);
    expect(exported.aggregate_rating).toEqual(served.aggregate_rating);
    expect(exported.reviews).toEqual(served.reviews);
    for (const marker of [...Object.values(MARKERS), ...UNPUBLISHED_IDS, 'csv-2', 'csv-3']) expect(toStdout.stdout).not.toContain(marker);

    const toFile = await runCli(['export', '--all', file('all.json')], env);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.stdout).toBe('');
    const everything = JSON.parse(await fs.readFile(file('all.json'), 'utf8')) as Dataset;
    expect(everything.business).toEqual(served.business);
    const ids = everything.reviews.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([...UNPUBLISHED_IDS, 'csv-2', 'csv-3', ...served.reviews.map((r) => r.id)]));
    expect(ids).toHaveLength(served.reviews.length + 4);
    const flags = (id: string) => {
      const r = everything.reviews.find((x) => x.id === id);
      return { verified: r?.verified, hidden: r?.hidden };
    };
    expect(flags(UNPUBLISHED_IDS[0])).toEqual({ verified: false, hidden: false });
    expect(flags(UNPUBLISHED_IDS[1])).toEqual({ verified: true, hidden: true });
    expect(flags('csv-3')).toEqual({ verified: false, hidden: false });
    expect(flags('r01')).toEqual({ verified: true, hidden: false });
  }, 60_000);

  it('export --all then import --replace is a no-op: all unchanged, /reviews.json byte-identical', async () => {
    const before = await get('/reviews.json');
    const r = await runCli(['import', '--replace', file('all.json')], env);
    expect(r.code, r.stderr).toBe(0);
    const total = (JSON.parse(await fs.readFile(file('all.json'), 'utf8')) as Dataset).reviews.length;
    expect(summary(r.stdout)).toEqual({ added: 0, updated: 0, unchanged: total, deleted: 0, unpublished: 4 });
    expect(r.stdout).toMatch(/business unchanged/);
    // Longer than the server's poll interval, so a spurious change would have been published.
    await new Promise((res) => setTimeout(res, 1500));
    const after = await get('/reviews.json');
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(after.body).toBe(before.body);
  }, 60_000);
});

describe('npm start semantics (DEMO_ON_EMPTY)', () => {
  it('never touches a database that holds data', async () => {
    // The server started above had DEMO_ON_EMPTY=true over the imported data: it served that data
    // throughout (checked by every test before this one) and never mentioned the demo.
    const body = JSON.parse((await get('/reviews.json')).body) as Dataset;
    expect(body.business.id).toBe('peak-plumbing');
    expect(body.reviews.some((r) => r.id.startsWith('rev-'))).toBe(false);
    expect(server.output().stderr).not.toMatch(/demo/i);
    await server.stop();
    // SIGTERM is a graceful shutdown: the process exits by itself, with status 0.
    expect(server.child.signalCode).toBeNull();
    expect(server.child.exitCode).toBe(0);
  }, 60_000);

  it('loads the bundled demo into an empty database and says so in its log', async () => {
    const demo = JSON.parse(await fs.readFile(path.join(ROOT, 'examples', 'demo', 'dataset.json'), 'utf8')) as {
      business: { id: string };
      reviews: { verified?: boolean; hidden?: boolean }[];
    };
    const demoServer = await startServer({
      ...env,
      DATABASE_URL: `sqlite:${file('empty.sqlite')}`,
      DEMO_ON_EMPTY: 'true',
      LOG_LEVEL: 'info',
    });
    try {
      const body = JSON.parse(await (await fetch(`${demoServer.url}/reviews.json`)).text()) as Dataset;
      expect(body.business.id).toBe(demo.business.id);
      expect(body.aggregate_rating.review_count).toBe(demo.reviews.filter((r) => r.verified === true && r.hidden !== true).length);
      expect(demoServer.output().stderr).toMatch(/demo/i);
      expect((body.business as { demo?: boolean }).demo).toBe(true);
      // The start-up message: every link answers, and the next command is plain text, not a log field.
      const printed = demoServer.output().stdout;
      expect(printed).not.toContain('{id}');
      // A link a browser opens answers GET; an endpoint a program POSTs to is marked POST.
      const links = [...printed.matchAll(/(http:\/\/\S+)( {2}\(POST\))?/g)].map((m) => ({
        post: m[2] !== undefined,
        url: m[1]!.replace(/[),]$/, ''),
      }));
      expect(links.filter((l) => !l.post).length).toBeGreaterThan(8);
      expect(links.filter((l) => l.post).map((l) => new URL(l.url).pathname)).toEqual(['/mcp', '/api/websub/hub']);
      for (const link of links) {
        const url = link.url.replace(BASE_URL, demoServer.url);
        const got = await fetch(url);
        if (!link.post) expect(got.status, link.url).toBe(200);
        else {
          expect(got.status, `GET ${link.url}`).not.toBe(200);
          expect((await fetch(url, { method: 'POST', body: '' })).status, `POST ${link.url}`).not.toBe(404);
        }
      }
      expect(printed).toMatch(/This is the bundled demo .*\n {2}npx review-data init /);
    } finally {
      await demoServer.stop();
    }
  }, 90_000);
});

describe('the command line helps a newcomer', () => {
  it('answers --version, and suggests the command or option a typo meant', async () => {
    const version = await runCli(['--version'], env);
    const pkg = JSON.parse(await fs.readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(`review-data ${pkg.version}`);
    const command = await runCli(['improt', 'x.csv'], env);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command 'improt' \(did you mean 'import'\?\)/);
    const flag = await runCli(['import', '--assume-verifed', 'x.csv'], env);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/unknown option --assume-verifed \(did you mean --assume-verified\?\)/);
    expect(flag.stderr).not.toMatch(/place it at the end of the command after '--'/);
    const typoed = await runCli(['--verison'], env);
    expect(typoed.code).toBe(2);
    expect(typoed.stderr).toMatch(/unknown option '--verison' \(did you mean '--version'\?\)/);
    const start = await runCli(['start'], env);
    expect(start.code).toBe(2);
    expect(start.stderr).toMatch(/unknown command 'start' \(did you mean 'serve'\?/);
  }, 60_000);

  it('says what a numeric setting expects, naming it, and a missing file plainly: no stack trace', async () => {
    const flag = await runCli(['serve', '--port', 'abc'], env);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/PORT \(--port\): must be a whole number from 0 to 65535 \(got "abc"\)/);
    const variable = await runCli(['serve'], { ...env, PORT: 'abc', SNAPSHOT_POLL_MS: '-1' });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toMatch(/PORT \(--port\): must be a whole number from 0 to 65535 \(got "abc"\)/);
    expect(variable.stderr).toMatch(/SNAPSHOT_POLL_MS \(--snapshot-poll-ms\): must be a whole number of 0 or more \(got "-1"\)/);
    const missing = file('no-such-reviews.csv');
    const imported = await runCli(['import', '--assume-verified', missing], env);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain(`no such file: ${missing}`);
    expect(imported.stderr).not.toContain('ENOENT');
    const ca = await runCli(['serve', '--port', '0'], { ...env, WEBSUB_CA_FILE: file('no-such-ca.pem') });
    expect(ca.code).toBe(2);
    expect(ca.stderr).toContain(`WEBSUB_CA_FILE: no such file: ${file('no-such-ca.pem')}`);
    // Checked before the store is opened: an empty database is left empty, not given the demo first.
    const taxonomy = await runCli(['serve', '--port', '0'], { ...env, INSIGHTS_TAXONOMY_FILE: file('no-such-taxonomy.json') });
    expect(taxonomy.code).toBe(2);
    expect(taxonomy.stderr).toContain(`INSIGHTS_TAXONOMY_FILE: no such file: ${file('no-such-taxonomy.json')}`);
    expect(taxonomy.stderr).not.toMatch(/loaded the demo/);
    for (const r of [flag, variable, imported, ca, taxonomy]) expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('describes every option in serve --help, and names the same options in --help as the README synopsis', async () => {
    const serve = await runCli(['serve', '--help'], env);
    expect(serve.code).toBe(0);
    for (const key of CONFIG_KEYS) {
      const flag = `--${flagName(key)}`;
      // The flag, its value, and words on what it does (on its line or the next).
      expect(serve.stdout, flag).toMatch(new RegExp(`\\n  ${flag} \\S+\\s+\\w[^\\n]{8,}`));
    }
    const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
    const synopsis = /<!-- doc-test: synopsis -->\s*```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    const documented = new Map<string, Set<string>>();
    let command = '';
    for (const line of synopsis.split('\n')) {
      command = /^npx review-data ([a-z-]+)/.exec(line)?.[1] ?? command;
      const flags = documented.get(command) ?? new Set<string>();
      for (const f of line.replace(/#.*$/, '').match(/--[a-z][a-z-]*/g) ?? []) flags.add(f);
      documented.set(command, flags);
    }
    expect([...documented.keys()].sort()).toEqual(
      ['backup', 'connect', 'eval-absa', 'export', 'import', 'init', 'serve', 'subscriptions', 'sync', 'train-absa'].sort(),
    );
    for (const [name, flags] of documented) {
      const help = await runCli([name, '--help'], env);
      expect(help.code, name).toBe(0);
      const offered = new Set((help.stdout.match(/--[a-z][a-z-]*/g) ?? []).filter((f) => f !== '--help'));
      for (const f of flags) expect(offered, `README: ${name} ${f}`).toContain(f);
      // The README says once that every command opening the database takes --database-url; serve lists all.
      if (name === 'serve') continue;
      for (const f of offered) if (f !== '--database-url') expect(flags, `${name} --help: ${f}`).toContain(f);
    }
  }, 120_000);
});
