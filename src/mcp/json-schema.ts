import { z } from 'zod';

export type JsonSchemaObject = { type: 'object'; [key: string]: unknown };

/**
 * A tool's inputSchema or outputSchema from the domain's zod schema, once at start-up. MCP 2025-11-25
 * §Tools wants a JSON Schema object (2020-12 by default) whose root is `type: "object"`; zod names
 * schemas that carry a `meta({ id })` in `$defs` and points the root at them with `$ref`, so the root
 * definition is hoisted back up (other `$defs` stay, referenced as before).
 */
export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
  const ref = typeof json.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(json.$ref)?.[1] : undefined;
  const defs = { ...((json.$defs as Record<string, unknown> | undefined) ?? {}) };
  let root: Record<string, unknown> = json;
  if (ref !== undefined && defs[ref] && !JSON.stringify(defs).includes(`"#/$defs/${ref}"`)) {
    root = { $schema: json.$schema, ...(defs[ref] as Record<string, unknown>) };
    delete defs[ref];
    if (Object.keys(defs).length > 0) root.$defs = defs;
    else delete root.$defs;
  }
  if (root.type !== 'object') throw new Error(`a tool schema must describe an object (got ${JSON.stringify(root.type)})`);
  return root as JsonSchemaObject;
}

/** The schema with `keys` removed from every `required` list, at any depth (keys an answer may leave out). */
export function withOptionalKeys<T>(schema: T, keys: readonly string[]): T {
  if (keys.length === 0) return schema;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = key === 'required' && Array.isArray(value) ? value.filter((k) => !keys.includes(k as string)) : walk(value);
    }
    return out;
  };
  return walk(schema) as T;
}

/**
 * The schema with each of `keys` moved from `properties` to `patternProperties` (anchored, so it matches
 * that one name). `search_reviews` keeps `properties` equal to the REST search parameters, which clients
 * compare with `GET /api/reviews/search` (contract §5: "the same filters"); the MCP-only `fields` argument
 * of §5's later paragraph is declared beside them, so a client that validates arguments, even against
 * the schema closed with `additionalProperties: false`, still accepts it, and a model still reads its
 * description (the tool's description names it too).
 */
export function withPatternKeys(schema: JsonSchemaObject, keys: readonly string[]): JsonSchemaObject {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (keys.length === 0 || !properties) return schema;
  const kept: Record<string, unknown> = {};
  const patterns: Record<string, unknown> = { ...((schema.patternProperties as Record<string, unknown> | undefined) ?? {}) };
  for (const [key, value] of Object.entries(properties)) {
    if (keys.includes(key)) patterns[`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`] = value;
    else kept[key] = value;
  }
  // patternProperties cannot make a key required: only optional arguments may move.
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const moved = keys.filter((k) => required.includes(k));
  if (moved.length > 0) throw new Error(`cannot declare required arguments under patternProperties: ${moved.join(', ')}`);
  return { ...schema, properties: kept, patternProperties: patterns };
}
