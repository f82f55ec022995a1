import { fromJsonSchema, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { toIssues } from '../domain/errors.js';
import type { ParseResult } from '../domain/search-params.js';

type JsonSchema = Record<string, unknown>;

/**
 * A domain schema as MCP 2025-11-25 §Tools lists it: JSON Schema 2020-12 with an object at the root (zod
 * puts a schema with a meta id in `$defs` and points the root at it: that definition is the root here).
 * Made once: given a zod schema, the SDK would convert it again on every instance, which serves one request.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $ref, $defs, ...json } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  const defs = { ...($defs as Record<string, JsonSchema> | undefined) };
  const id = typeof $ref === 'string' ? $ref.replace('#/$defs/', '') : undefined;
  const root = id === undefined ? json : { ...json, ...defs[id] };
  if (id !== undefined) delete defs[id];
  if (root.type !== 'object' || JSON.stringify(defs).includes(`"#/$defs/${id}"`)) throw new Error('a tool schema must be an object');
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs };
}

/**
 * A tool's inputSchema for the SDK's `registerTool`, a Standard Schema with its JSON Schema: the domain's
 * zod schema gives the listing and the handler's type, and `parse` (the domain's validation with that
 * schema) the handler's outcome, because invalid arguments are not the SDK's protocol error but a tool
 * result with the REST `issues` (contract §5), which the handler writes. `patternKeys` move from
 * `properties` to `patternProperties`, anchored on the one name: `search_reviews` keeps `properties` the
 * REST search parameters, one for one, and declares MCP's own `fields` beside them, where a client that
 * validates arguments (even against the schema closed with `additionalProperties: false`) accepts it.
 */
export function toolInput<S extends z.ZodType, T = z.output<S>>(
  schema: S,
  { parse, patternKeys = [] }: { parse?: (args: Record<string, unknown>) => ParseResult<T>; patternKeys?: string[] } = {},
): StandardSchemaWithJSON<z.input<S>, ParseResult<T>> {
  const { properties, required, ...json } = jsonSchemaOf(schema, 'input') as JsonSchema & { properties: JsonSchema; required?: string[] };
  // patternProperties cannot make a key required: only optional arguments may move.
  if (patternKeys.some((key) => required?.includes(key))) throw new Error(`${patternKeys.join()}: only optional arguments may move`);
  const listed = {
    ...json,
    properties: Object.fromEntries(Object.entries(properties).filter(([key]) => !patternKeys.includes(key))),
    ...(required ? { required } : {}),
    ...(patternKeys.length > 0 ? { patternProperties: Object.fromEntries(patternKeys.map((key) => [`^${key}$`, properties[key]])) } : {}),
  };
  const check = (args: Record<string, unknown>): ParseResult<T> => {
    if (parse) return parse(args);
    const parsed = schema.safeParse(args);
    return parsed.success ? { ok: true, value: parsed.data as T } : { ok: false, issues: toIssues(parsed.error) };
  };
  const validate = (args: unknown) => ({ value: check((args ?? {}) as Record<string, unknown>) });
  return {
    '~standard': { version: 1, vendor: 'review-data-service', validate, jsonSchema: { input: () => listed, output: () => listed } },
  };
}

/**
 * A tool's outputSchema through the SDK's `fromJsonSchema`, so the SDK validates every result against what
 * tools/list shows: the domain's zod schema as JSON Schema, with `optionalKeys` out of every `required`
 * list at any depth (keys an answer may leave out: get_insights' `review_ids`).
 */
export function toolOutput<S extends z.ZodType>(schema: S, optionalKeys: string[] = []): StandardSchemaWithJSON<z.output<S>> {
  const json = JSON.stringify(jsonSchemaOf(schema, 'output'));
  const optional = (key: string, value: unknown) =>
    key === 'required' && Array.isArray(value) ? value.filter((k) => !optionalKeys.includes(k as string)) : value;
  return fromJsonSchema<z.output<S>>(JSON.parse(json, optional) as JsonSchema);
}
