import type * as ZodProviderModule from 'fastify-type-provider-zod';
import type { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RESPONSE_HEADERS, type ResponseSpec } from '../domain/openapi-spec.js';

/**
 * What the service's OpenAPI description adds to fastify-type-provider-zod's output, in one place:
 * response headers and examples (the library keeps only a response's description and schemas), and
 * one component per shape (the library emits an `XInput` twin of every registered schema).
 */

// The schema converter loads with the first request for the document, not at start (start-up time).
let zodProvider: typeof ZodProviderModule | undefined;

/** Loads what generating the document needs; call (and await) before `app.swagger()`. */
export async function loadOpenApiGenerator(): Promise<void> {
  zodProvider ??= await import('fastify-type-provider-zod');
}

function provider(): typeof ZodProviderModule {
  if (!zodProvider) throw new Error('the OpenAPI generator is not loaded: await loadOpenApiGenerator() before app.swagger()');
  return zodProvider;
}

function isResponseSpec(value: unknown): value is ResponseSpec {
  return typeof value === 'object' && value !== null && !(value instanceof z.ZodType) && 'description' in value;
}

type Transform = ReturnType<typeof createJsonSchemaTransform>;
type TransformInput = Parameters<Transform>[0];

/** An operation's 200 example, by operationId, for the responses whose spec gives none. */
type ExampleOf = (operationId: string) => unknown;

/** The per-route transform: the library's, with headers and examples carried over. */
function createOpenApiTransform(bodyExamples: Map<string, unknown>, exampleOf: ExampleOf): Transform {
  let zodTransform: Transform | undefined;
  return (input: TransformInput) => {
    zodTransform ??= provider().createJsonSchemaTransform({});
    const { bodyExample, ...schema } = (input.schema ?? {}) as {
      response?: Record<string, unknown>;
      bodyExample?: unknown;
      operationId?: string;
    };
    if (bodyExample !== undefined && schema.operationId) bodyExamples.set(schema.operationId, bodyExample);
    const response = schema.response;
    if (!response) return zodTransform({ ...input, schema } as TransformInput);
    const specs = new Map<string, ResponseSpec>();
    const forLibrary: Record<string, unknown> = {};
    for (const [status, entry] of Object.entries(response)) {
      if (!isResponseSpec(entry)) {
        forLibrary[status] = entry;
        continue;
      }
      specs.set(status, entry);
      forLibrary[status] = entry.content
        ? {
            description: entry.description,
            content: Object.fromEntries(Object.entries(entry.content).map(([type, media]) => [type, { schema: media.schema }])),
          }
        : z.null().describe(entry.description);
    }
    const result = zodTransform({ ...input, schema: { ...schema, response: forLibrary } } as TransformInput);
    const out = (result.schema as { response?: Record<string, Record<string, unknown>> }).response ?? {};
    const demoExample = schema.operationId ? exampleOf(schema.operationId) : undefined;
    for (const [status, spec] of specs) {
      const target = out[status];
      if (target) addHeadersAndExamples(target, spec, status === '200' ? demoExample : undefined);
    }
    return result;
  };
}

/** A response's headers, and the example of each media type: its spec's, else `fallback`. */
function addHeadersAndExamples(target: Record<string, unknown>, spec: ResponseSpec, fallback: unknown): void {
  if (spec.headers?.length) target.headers = Object.fromEntries(spec.headers.map((h) => [h, { ...RESPONSE_HEADERS[h] }]));
  const content = target.content as Record<string, Record<string, unknown>> | undefined;
  for (const [type, media] of Object.entries(spec.content ?? {})) {
    const example = media.example ?? fallback;
    if (example !== undefined && content?.[type]) content[type].example = example;
  }
}

type TransformObject = ReturnType<typeof createJsonSchemaTransformObject>;
type OpenApiObject = { components?: { schemas?: Record<string, unknown> } } & Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/** Replaces every `$ref` to a renamed component, anywhere in the document. */
function rewriteRefs(node: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, renames));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) {
      const name = value.slice(REF_PREFIX.length);
      out[key] = REF_PREFIX + (renames.get(name) ?? name);
    } else out[key] = rewriteRefs(value, renames);
  }
  return out;
}

function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) return node.forEach((n) => collectRefs(n, into));
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) into.add(value.slice(REF_PREFIX.length));
    else collectRefs(value, into);
  }
}

/**
 * One component per shape: an `XInput` component equal to `X` (once its own references are renamed
 * the same way) is replaced by `X`; components that nothing references are dropped.
 */
export function onePerShape(doc: OpenApiObject): OpenApiObject {
  const schemas = doc.components?.schemas ?? {};
  const twins = Object.keys(schemas).filter((n) => n.endsWith('Input') && n.slice(0, -'Input'.length) in schemas);
  const renames = new Map(twins.map((n) => [n, n.slice(0, -'Input'.length)]));
  // A twin that differs (a default, a transform) keeps its name, and so does every twin that refers to it.
  let changed = true;
  while (changed) {
    changed = false;
    for (const [input, output] of renames) {
      if (JSON.stringify(rewriteRefs(schemas[input], renames)) !== JSON.stringify(schemas[output])) {
        renames.delete(input);
        changed = true;
      }
    }
  }
  const renamed = rewriteRefs({ ...doc, components: { ...doc.components, schemas: {} } }, renames) as OpenApiObject;
  const kept: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas)) if (!renames.has(name)) kept[name] = rewriteRefs(schema, renames);
  // Reachable components: from everything outside components/schemas, then through the schemas.
  const used = new Set<string>();
  collectRefs(renamed, used);
  for (let queue = [...used]; queue.length > 0;) {
    const found = new Set<string>();
    collectRefs(kept[queue.pop()!], found);
    for (const name of found) {
      if (used.has(name)) continue;
      used.add(name);
      queue.push(name);
    }
  }
  const schemasOut = Object.fromEntries(Object.entries(kept).filter(([name]) => used.has(name)));
  // An input shape whose output twin is never used (a request body) takes the plain name.
  const orphans = new Map(
    Object.keys(schemasOut)
      .filter((n) => n.endsWith('Input') && !(n.slice(0, -'Input'.length) in schemasOut))
      .map((n) => [n, n.slice(0, -'Input'.length)]),
  );
  if (orphans.size === 0) return { ...renamed, components: { ...renamed.components, schemas: schemasOut } };
  const finalSchemas = Object.fromEntries(Object.entries(schemasOut).map(([n, sch]) => [orphans.get(n) ?? n, rewriteRefs(sch, orphans)]));
  return { ...(rewriteRefs(renamed, orphans) as OpenApiObject), components: { ...renamed.components, schemas: finalSchemas } };
}

/**
 * The order `components.schemas` lists the components in. The library lists them as zod's registry
 * holds them, which is the order their modules happened to load: the bundled build loads them
 * in another order than tsc's tree, which would change the document's bytes with the build. This is the
 * order the document has always had; a component missing here comes after these, and a test requires
 * every component to be listed.
 */
export const COMPONENT_ORDER: readonly string[] = [
  'JsonRpcRequest',
  'Issue',
  'Problem',
  'AggregateRating',
  'Review',
  'ReviewsDataset',
  'JsonFeed',
  'AspectInsight',
  'EntityInsight',
  'InsightsEntities',
  'InsightsTopic',
  'InsightsFaqEntry',
  'InsightsSummary',
  'Insights',
  'SearchResult',
  'SinceResult',
  'ReviewResult',
  'JsonRpcResponse',
];

/** `components.schemas` in COMPONENT_ORDER, then any others in the order they came. */
export function inComponentOrder(doc: OpenApiObject): OpenApiObject {
  const schemas = doc.components?.schemas;
  if (!schemas) return doc;
  const rank = (name: string) => {
    const i = COMPONENT_ORDER.indexOf(name);
    return i === -1 ? COMPONENT_ORDER.length : i;
  };
  // Array.prototype.sort is stable: unlisted names keep their relative order.
  const ordered = Object.keys(schemas).sort((a, b) => rank(a) - rank(b));
  return { ...doc, components: { ...doc.components, schemas: Object.fromEntries(ordered.map((n) => [n, schemas[n]])) } };
}

type Operation = { operationId?: string; requestBody?: { content?: Record<string, Record<string, unknown>> } };

/** Request body examples (route schema key `bodyExample`) on every media type of the body. */
function addBodyExamples(doc: OpenApiObject, bodyExamples: Map<string, unknown>): OpenApiObject {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      const example = op.operationId ? bodyExamples.get(op.operationId) : undefined;
      if (example === undefined) continue;
      for (const media of Object.values(op.requestBody?.content ?? {})) media.example = example;
    }
  }
  return doc;
}

/**
 * @fastify/swagger's `transform` (per route) and `transformObject` (whole document): the library's,
 * with headers, examples and one component per shape. `exampleOf` gives the 200 examples the routes
 * leave out (the demo's answers, openapi-examples.ts), read when the document is generated.
 */
export function createOpenApiTransforms(exampleOf: ExampleOf = () => undefined): {
  transform: Transform;
  transformObject: TransformObject;
} {
  const bodyExamples = new Map<string, unknown>();
  let zodTransformObject: TransformObject | undefined;
  return {
    transform: createOpenApiTransform(bodyExamples, exampleOf),
    transformObject: (input) => {
      zodTransformObject ??= provider().createJsonSchemaTransformObject({});
      return addBodyExamples(
        inComponentOrder(onePerShape(zodTransformObject(input) as OpenApiObject)),
        bodyExamples,
      ) as ReturnType<TransformObject>;
    },
  };
}
