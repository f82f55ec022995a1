import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPONENT_ORDER, inComponentOrder } from '../../src/http/openapi-document.js';
import { BASE_URL, createTestApp, header, json, request, type Answer } from './app-harness.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');

interface MediaType {
  schema?: Record<string, unknown>;
}
interface ResponseObject {
  description: string;
  content?: Record<string, MediaType & { example?: unknown }>;
  headers?: Record<string, unknown>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Record<string, unknown>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  parameters?: Parameter[];
  responses: Record<string, ResponseObject>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

/** A request of the test, with the path template of the operation that answers it. */
interface Sample {
  template: string;
  url: string;
  headers?: Record<string, string>;
  status: number;
}

const SEARCH_PARAMETERS = [
  'rating',
  'min_rating',
  'since',
  'until',
  'query',
  'mentions_technician',
  'mentions_service',
  'limit',
  'sort',
  'cursor',
];
const DOCUMENT_PATHS = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'];

/** Requests that give every documented status of every operation (200, 304, 400, 404). */
function samples(etags: Map<string, string>): Sample[] {
  const ok = (template: string, url: string, headers?: Record<string, string>): Sample => ({
    template,
    url,
    status: 200,
    ...(headers ? { headers } : {}),
  });
  const list: Sample[] = [
    ...DOCUMENT_PATHS.map((p) => ok(p, p)),
    ok('/api/feed.json', '/api/feed.json', { accept: 'application/json' }),
    ok('/api/reviews/search', '/api/reviews/search'),
    ok('/api/reviews/search', '/api/reviews/search?rating=5&limit=2'),
    ok(
      '/api/reviews/search',
      '/api/reviews/search?min_rating=2.5&since=2025-01-01&until=2025-12-31&query=the&mentions_technician=Mike&mentions_service=drain-cleaning&sort=lowest&limit=100',
    ),
    ok('/api/reviews/search', '/api/reviews/search?mentions_technician=nobody'),
    ok('/api/reviews/since/{date}', '/api/reviews/since/2025-03-01'),
    ok('/api/reviews/since/{date}', '/api/reviews/since/2999-01-01'),
    ok('/api/reviews/{id}', '/api/reviews/r01'),
    ok('/api/reviews/{id}', '/api/reviews/r04'),
    { template: '/api/reviews/search', url: '/api/reviews/search?rating=9&limit=0&since=2025-02-30&sort=up&cursor=x', status: 400 },
    { template: '/api/reviews/search', url: '/api/reviews/search?rating=1&rating=2', status: 400 },
    { template: '/api/reviews/search', url: '/api/reviews/search?since=2025-06-01&until=2025-05-01', status: 400 },
    { template: '/api/reviews/since/{date}', url: '/api/reviews/since/2025-02-30', status: 400 },
    { template: '/api/reviews/since/{date}', url: '/api/reviews/since/yesterday', status: 400 },
    { template: '/api/reviews/{id}', url: '/api/reviews/no-such-review', status: 404 },
    { template: '/api/reviews/{id}', url: `/api/reviews/${'x'.repeat(600)}`, status: 404 },
  ];
  for (const [template, url] of [
    ...DOCUMENT_PATHS.map((p) => [p, p]),
    ['/api/reviews/search', '/api/reviews/search?rating=5&limit=2'],
    ['/api/reviews/since/{date}', '/api/reviews/since/2025-03-01'],
    ['/api/reviews/{id}', '/api/reviews/r01'],
  ] as const) {
    list.push({ template, url, headers: { 'if-none-match': etags.get(url)! }, status: 304 });
  }
  return list;
}

let app: FastifyInstance;
let doc: OpenApiDocument;
let served: Answer;
const answers: { sample: Sample; answer: Answer }[] = [];

beforeAll(async () => {
  ({ app } = await createTestApp());
  served = await request(app, '/.well-known/openapi.json');
  doc = json<OpenApiDocument>(served);
  const etags = new Map<string, string>();
  for (const url of [...DOCUMENT_PATHS, '/api/reviews/search?rating=5&limit=2', '/api/reviews/since/2025-03-01', '/api/reviews/r01']) {
    etags.set(url, header(await request(app, url), 'etag')!);
  }
  for (const sample of samples(etags)) answers.push({ sample, answer: await request(app, sample.url, sample.headers ?? {}) });
});
afterAll(async () => {
  await app.close();
});

describe('GET /.well-known/openapi.json', () => {
  it('is OpenAPI 3.1.0, version 1.0.0, served from BASE_URL, as JSON', () => {
    expect(served.status).toBe(200);
    expect(header(served, 'content-type')).toBe('application/json; charset=utf-8');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: BASE_URL }]);
  });

  it('describes every endpoint with GET, its parameters and its responses', () => {
    const expected: Record<string, { params: [string, string, boolean][]; statuses: string[] }> = {
      '/reviews.json': { params: [], statuses: ['200', '304', '503'] },
      '/insights.json': { params: [], statuses: ['200', '304', '503'] },
      '/api/feed.json': { params: [], statuses: ['200', '304', '503'] },
      '/feed.xml': { params: [], statuses: ['200', '304', '503'] },
      '/api/reviews/search': { params: SEARCH_PARAMETERS.map((n) => [n, 'query', false]), statuses: ['200', '304', '400'] },
      '/api/reviews/since/{date}': { params: [['date', 'path', true]], statuses: ['200', '304', '400'] },
      '/api/reviews/{id}': { params: [['id', 'path', true]], statuses: ['200', '304', '404'] },
    };
    for (const [p, want] of Object.entries(expected)) {
      const op = doc.paths[p]?.get;
      expect(op, p).toBeDefined();
      const params = (op?.parameters ?? []).map((x) => [x.name, x.in, x.required ?? false]);
      expect(params.sort(), p).toEqual([...want.params].sort());
      expect(Object.keys(op?.responses ?? {}).sort(), p).toEqual(want.statuses);
      for (const [status, response] of Object.entries(op?.responses ?? {})) {
        expect(response.description, `${p} ${status}`).toBeTruthy();
        if (status === '304') expect(response.content, `${p} 304 has no body`).toBeUndefined();
        else expect(Object.keys(response.content ?? {}).length, `${p} ${status}`).toBeGreaterThan(0);
      }
    }
    expect(Object.keys(doc.paths).filter((p) => !(p in expected))).toEqual([]);
    // Parameter schemas say what the handlers enforce.
    const search = Object.fromEntries((doc.paths['/api/reviews/search']?.get?.parameters ?? []).map((x) => [x.name, x.schema]));
    expect(search.rating).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    expect(search.min_rating).toMatchObject({ type: 'number', minimum: 1, maximum: 5 });
    expect(search.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(search.since).toMatchObject({ type: 'string', format: 'date' });
    expect(search.until).toMatchObject({ type: 'string', format: 'date' });
    expect(search.sort).toMatchObject({ enum: ['newest', 'oldest', 'highest', 'lowest'] });
    expect(doc.paths['/api/reviews/since/{date}']?.get?.parameters?.[0]?.schema).toMatchObject({ type: 'string', format: 'date' });
  });

  it('gives every operation an operationId, a summary, tags and an example', () => {
    const ids = new Set<string>();
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const label = `${method} ${p}`;
        expect(op.operationId, label).toMatch(/^[a-zA-Z]+$/);
        expect(ids.has(op.operationId!), `${label}: operationId is unique`).toBe(false);
        ids.add(op.operationId!);
        expect(op.summary, label).toBeTruthy();
        expect(op.tags?.length, label).toBe(1);
        const examples = [
          ...Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {})),
          ...Object.values(op.requestBody?.content ?? {}),
        ].filter((m) => m.example !== undefined);
        expect(examples.length, `${label} has an example`).toBeGreaterThan(0);
        for (const body of Object.values(op.requestBody?.content ?? {})) expect(body.example, `${label} request body`).toBeDefined();
      }
    }
  });

  it('lists its components in COMPONENT_ORDER, whatever order their modules loaded in', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names.filter((n) => !COMPONENT_ORDER.includes(n))).toEqual([]);
    expect(names).toEqual(COMPONENT_ORDER.filter((n) => names.includes(n)));
    // A registry filled in another order (the bundle's) gives the same document.
    const shuffled = [...names.slice(1), 'Unlisted', names[0]!];
    const reordered = inComponentOrder({ components: { schemas: Object.fromEntries(shuffled.map((n) => [n, { title: n }])) } });
    expect(Object.keys(reordered.components?.schemas ?? {})).toEqual([...names, 'Unlisted']);
  });

  it('has one component per shape and one media type key per content type', () => {
    const names = Object.keys(doc.components.schemas);
    // An XInput twin only where the input shape really differs from the output X.
    for (const name of names.filter((n) => n.endsWith('Input'))) {
      const twin = doc.components.schemas[name.slice(0, -'Input'.length)];
      if (twin) expect(JSON.stringify(doc.components.schemas[name]), name).not.toBe(JSON.stringify(twin));
    }
    expect(names).toContain('Review');
    expect(names).not.toContain('ReviewInput');
    const keys = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => Object.values(op.responses).flatMap((r) => Object.keys(r.content ?? {}))),
    );
    expect(keys.filter((k) => k.includes(';'))).toEqual([]);
    expect(keys).toContain('application/json');
  });

  it('is a valid OpenAPI document (swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('passes redocly lint', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rds-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await fs.writeFile(file, served.body);
      const result = await run(path.join(ROOT, 'node_modules', '.bin', 'redocly'), ['lint', file, '--format=stylish'], {
        cwd: ROOT,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        timeout: 60_000,
      }).then(
        (r) => ({ code: 0, output: r.stdout + r.stderr }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
      );
      expect(result.code, result.output).toBe(0);
      expect(result.output, 'no warnings either').not.toMatch(/You have \d+ warning/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('every response validates against the description', () => {
  const baseType = (t: string | undefined) => (t ?? '').split(';')[0]!.trim().toLowerCase();

  function validatorFor(schema: Record<string, unknown>, cache: Map<Record<string, unknown>, ValidateFunction>, ajv: Ajv2020) {
    let v = cache.get(schema);
    if (!v) {
      // Component references resolve against the whole document.
      const rebased = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"https://openapi.test/document.json#/components/'),
      ) as object;
      v = ajv.compile(rebased);
      cache.set(schema, v);
    }
    return v;
  }

  function createAjv(): Ajv2020 {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
    addFormats.default(ajv);
    // OpenAPI 3.1 annotations that are not JSON Schema keywords.
    ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator', 'components']);
    ajv.addSchema({ $id: 'https://openapi.test/document.json', components: doc.components });
    return ajv;
  }

  it('every response schema of the document compiles (Ajv, JSON Schema 2020-12)', () => {
    const ajv = createAjv();
    const cache = new Map<Record<string, unknown>, ValidateFunction>();
    let count = 0;
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [status, response] of Object.entries(item.get?.responses ?? {})) {
        for (const [media, content] of Object.entries(response.content ?? {})) {
          expect(content.schema, `${p} ${status} ${media}`).toBeDefined();
          validatorFor(content.schema!, cache, ajv);
          count++;
        }
      }
    }
    expect(count).toBeGreaterThanOrEqual(11);
  });

  it('covers 200, 304, 400 and 404 of every operation', () => {
    const seen = new Set(answers.map(({ sample }) => `${sample.template} ${sample.status}`));
    for (const [p, item] of Object.entries(doc.paths)) {
      // 503 (a document still being computed) cannot happen over a fixed snapshot.
      for (const status of Object.keys(item.get?.responses ?? {}).filter((s) => s !== '503')) {
        expect(seen, `${p} ${status}`).toContain(`${p} ${status}`);
      }
    }
  });

  it('every example in the document validates against its schema', () => {
    const ajv = createAjv();
    const cache = new Map<Record<string, unknown>, ValidateFunction>();
    let count = 0;
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          for (const [media, content] of Object.entries(response.content ?? {})) {
            if (content.example === undefined) continue;
            const validate = validatorFor(content.schema!, cache, ajv);
            expect(validate(content.example) ? [] : validate.errors, `${method} ${p} ${status} ${media}`).toEqual([]);
            count++;
          }
        }
      }
    }
    expect(count).toBeGreaterThanOrEqual(10);
  });

  it('declares the validators, Link and Vary on every answer that sends them', () => {
    for (const { sample, answer } of answers) {
      const declared = Object.keys(doc.paths[sample.template]?.get?.responses[String(answer.status)]?.headers ?? {}).map((h) =>
        h.toLowerCase(),
      );
      for (const name of ['etag', 'last-modified', 'cache-control', 'link', 'vary', 'retry-after']) {
        if (header(answer, name) !== undefined) expect(declared, `${sample.url} ${answer.status} sends ${name}`).toContain(name);
      }
    }
  });

  it('the real bodies of 200, 400 and 404 answers match their documented schema and media type', () => {
    const ajv = createAjv();
    const cache = new Map<Record<string, unknown>, ValidateFunction>();
    for (const { sample, answer } of answers) {
      const label = `${sample.url} ${JSON.stringify(sample.headers ?? {})}`;
      expect(answer.status, label).toBe(sample.status);
      const response = doc.paths[sample.template]?.get?.responses[String(answer.status)];
      expect(response, `${label}: status ${answer.status} is documented`).toBeDefined();
      if (answer.status === 304) {
        expect(answer.raw.length, label).toBe(0);
        continue;
      }
      const type = header(answer, 'content-type');
      const media = Object.entries(response?.content ?? {}).find(([m]) => baseType(m) === baseType(type));
      expect(media, `${label}: ${type} is documented`).toBeDefined();
      const schema = media![1].schema!;
      const body: unknown = baseType(type) === 'application/atom+xml' ? answer.body : JSON.parse(answer.body);
      const validate = validatorFor(schema, cache, ajv);
      expect(validate(body) ? [] : validate.errors, label).toEqual([]);
    }
    // The check can fail: a body that breaks the description is caught.
    const search = answers.find(({ sample }) => sample.template === '/api/reviews/search' && sample.status === 200)!;
    const broken = JSON.parse(search.answer.body) as { reviews: { rating: number; verified: boolean }[] };
    broken.reviews[0]!.verified = false;
    const schema = doc.paths['/api/reviews/search']!.get!.responses['200']!.content!['application/json']!.schema!;
    expect(validatorFor(schema, cache, ajv)(broken)).toBe(false);
  });
});
