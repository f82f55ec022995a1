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
