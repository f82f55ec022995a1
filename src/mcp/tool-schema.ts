import { fromJsonSchema, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { toIssues } from '../domain/errors.js';
import type { ParseResult } from '../domain/search-params.js';

type JsonSchema = Record<string, unknown>;

/**
 * A domain schema as MCP 2025-11-25 §Tools lists it: JSON Schema 2020-12 with an object at the root. zod
 * puts a schema with a meta id in `$defs` and points the root at it; that definition is the root here.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $ref, $defs, ...json } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  const defs = { ...($defs as Record<string, JsonSchema> | undefined) };
  const id = typeof $ref === 'string' ? /^#\/\$defs\/(.+)$/.exec($ref)?.[1] : undefined;
  const root = id === undefined ? json : { ...json, ...defs[id] };
  if (id !== undefined) delete defs[id];
  if (root.type !== 'object' || JSON.stringify(defs).includes(`"#/$defs/${id}"`)) throw new Error('a tool schema must be an object');
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs };
}

/**
 * A tool's inputSchema for the SDK's `registerTool` (a Standard Schema with its JSON Schema, which the SDK
 * lists and validates with): the domain's zod schema gives the listing and the handler's type, and
 * `parse`, the domain's validation with that schema, gives the handler its outcome. Invalid arguments
 * are not the SDK's protocol error but a tool result with the REST `issues` (contract §5), which the
 * handler writes. `patternKeys` move from `properties` to `patternProperties`, anchored on the one
 * name: `search_reviews` keeps `properties` equal to the REST search parameters (clients map them one
 * for one) and declares MCP's own `fields` beside them, where a client that validates arguments, even
 * against the schema closed with `additionalProperties: false`, accepts it.
 *
 * The JSON Schema is made once, here: given a zod schema, the SDK converts it again on every server
 * instance that lists or calls the tool, and an instance serves one request.
 */
export function toolInput<S extends z.ZodType, T = z.output<S>>(
  schema: S,
  options: { parse?: (args: Record<string, unknown>) => ParseResult<T>; patternKeys?: readonly string[] } = {},
): StandardSchemaWithJSON<z.input<S>, ParseResult<T>> {
  const { patternKeys = [] } = options;
  const json = jsonSchemaOf(schema, 'input');
  const properties = { ...(json.properties as JsonSchema) };
  const patternProperties: JsonSchema = {};
  for (const key of patternKeys) {
    // patternProperties cannot make a key required: only optional arguments may move.
    if ((json.required as string[] | undefined)?.includes(key)) throw new Error(`${key} is required: it cannot move to patternProperties`);
    patternProperties[`^${key}$`] = properties[key];
    delete properties[key];
  }
  const listed = patternKeys.length === 0 ? json : { ...json, properties, patternProperties };
  const parse =
    options.parse ??
    ((args: Record<string, unknown>): ParseResult<T> => {
      const parsed = schema.safeParse(args);
      return parsed.success ? { ok: true, value: parsed.data as T } : { ok: false, issues: toIssues(parsed.error) };
    });
  return {
    '~standard': {
      version: 1,
      vendor: 'review-data-service',
      validate: (args) => ({ value: parse((args ?? {}) as Record<string, unknown>) }),
      jsonSchema: { input: () => listed, output: () => listed },
    },
  };
}

/**
 * A tool's outputSchema: the domain's zod schema as JSON Schema, made once, with `optionalKeys` out of
 * every `required` list at any depth (keys an answer may leave out: get_insights' `review_ids`), through
 * the SDK's `fromJsonSchema`, so the SDK validates every result against exactly what tools/list shows.
 */
export function toolOutput<S extends z.ZodType>(schema: S, optionalKeys: readonly string[] = []): StandardSchemaWithJSON<z.output<S>> {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const entries = Object.entries(node).map(([key, value]) => {
      if (key !== 'required' || !Array.isArray(value)) return [key, walk(value)];
      return [key, value.filter((name) => !optionalKeys.includes(name as string))];
    });
    return Object.fromEntries(entries);
  };
  return fromJsonSchema<z.output<S>>(walk(jsonSchemaOf(schema, 'output')) as JsonSchema);
}
