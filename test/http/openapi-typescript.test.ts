import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, request } from './app-harness.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Operations of the client: its path, the URL asked, the status and media type of the answer. */
const CALLS = [
  { name: 'dataset', path: '/reviews.json', url: '/reviews.json', status: 200, media: 'application/json' },
  { name: 'insights', path: '/insights.json', url: '/insights.json', status: 200, media: 'application/json' },
  { name: 'feed', path: '/api/feed.json', url: '/api/feed.json', status: 200, media: 'application/feed+json' },
  { name: 'search', path: '/api/reviews/search', url: '/api/reviews/search?rating=5&limit=2', status: 200, media: 'application/json' },
  { name: 'since', path: '/api/reviews/since/{date}', url: '/api/reviews/since/2025-03-01', status: 200, media: 'application/json' },
  { name: 'review', path: '/api/reviews/{id}', url: '/api/reviews/r01', status: 200, media: 'application/json' },
  { name: 'badSearch', path: '/api/reviews/search', url: '/api/reviews/search?rating=9', status: 400, media: 'application/json' },
  { name: 'missing', path: '/api/reviews/{id}', url: '/api/reviews/no-such-review', status: 404, media: 'application/json' },
] as const;

let app: FastifyInstance;
let dir: string;

beforeAll(async () => {
  ({ app } = await createTestApp());
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-openapi-ts-'));
});
afterAll(async () => {
  await app.close();
  await fs.rm(dir, { recursive: true, force: true });
});

async function tsc(files: string[]): Promise<{ code: number; output: string }> {
  const args = [
    '--noEmit',
    '--strict',
    '--noUncheckedIndexedAccess',
    '--target',
    'es2022',
    '--module',
    'nodenext',
    '--skipLibCheck',
    ...files,
  ];
  return run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), ...args], { cwd: dir, timeout: 120_000 }).then(
    (r) => ({ code: 0, output: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );
}

describe('TypeScript types generated from the OpenAPI document (openapi-typescript)', () => {
  it('type the live responses: a client holding them compiles, and a wrong one does not', async () => {
    const doc = JSON.parse((await request(app, '/.well-known/openapi.json')).body) as object;
    const types = astToString(await openapiTS(doc as never));
    await fs.writeFile(path.join(dir, 'api.d.ts'), types);
    // One component per shape: the generator sees no input twins.
    expect(types).toContain('Review: {');
    expect(types).not.toContain('ReviewInput');

    const lines = ["import type { paths } from './api.js';", ''];
    lines.push("type Body<P extends keyof paths, S extends keyof paths[P]['get']['responses'], M extends string> =");
    lines.push("  paths[P]['get']['responses'][S] extends { content: Record<M, infer B> } ? B : never;");
    for (const call of CALLS) {
      const answer = await request(app, call.url);
      expect(answer.status, call.url).toBe(call.status);
      lines.push(`export const ${call.name}: Body<'${call.path}', ${call.status}, '${call.media}'> = ${answer.body};`);
    }
    // A small client that reads what a consumer reads, through the generated types only.
    lines.push('export const firstRating: number | undefined = search.reviews[0]?.rating;');
    lines.push('export const nextCursor: string | null = search.next_cursor;');
    lines.push('export const problemCode: string = badSearch.code;');
    lines.push('export const averageRating: number = dataset.aggregate_rating.rating_value;');
    await fs.writeFile(path.join(dir, 'client.ts'), lines.join('\n') + '\n');
    const ok = await tsc(['client.ts']);
    expect(ok.output, 'the live responses fit the generated types').toBe('');
    expect(ok.code).toBe(0);

    // The check can fail: a response that breaks the description does not compile.
    const broken = lines.map((l) => (l.startsWith('export const review:') ? l.replace('"rating":', '"rating":"five","x":') : l));
    await fs.writeFile(path.join(dir, 'broken.ts'), broken.join('\n') + '\n');
    const bad = await tsc(['broken.ts']);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/broken\.ts/);
  }, 180_000);
});
