import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ReviewResultSchema } from '../../src/domain/results.js';
import { SearchArgumentsSchema } from '../../src/domain/tool-arguments.js';
import { toolInput, toolOutput } from '../../src/mcp/tool-schema.js';

const TARGET = { target: 'draft-2020-12' } as const;

/** The domain's zod schemas as the tool schemas the SDK lists and validates with (src/mcp/tool-schema.ts). */
describe('MCP tool schemas', () => {
  it('lists an object schema, a meta-id root hoisted out of $defs, and moves pattern keys out of properties', () => {
    const review = toolOutput(ReviewResultSchema)['~standard'].jsonSchema.output(TARGET);
    expect(review).toMatchObject({ type: 'object', required: ['review'] });
    expect(review.$ref).toBeUndefined();
    const search = toolInput(SearchArgumentsSchema, { patternKeys: ['fields'] })['~standard'].jsonSchema.input(TARGET) as {
      properties: object;
      patternProperties: Record<string, { type: string }>;
    };
    expect(Object.keys(search.properties)).not.toContain('fields');
    expect(search.patternProperties['^fields$']).toMatchObject({ type: 'array' });
    expect(() => toolInput(z.object({ id: z.string() }), { patternKeys: ['id'] })).toThrow(/only optional/);
  });

  it('validation hands the handler the outcome: the value, or the issues a REST 400 would list', async () => {
    const input = toolInput(z.object({ id: z.string(), limit: z.int().default(20) }))['~standard'];
    expect(await input.validate({ id: 'a' })).toEqual({ value: { ok: true, value: { id: 'a', limit: 20 } } });
    expect(await input.validate(undefined)).toMatchObject({ value: { ok: false, issues: [{ path: ['id'], code: 'invalid_type' }] } });
  });

  it('an output schema validates results against what it lists, optional keys left out of every required list', async () => {
    const schema = z.object({ entities: z.array(z.object({ name: z.string(), review_ids: z.array(z.string()) })) });
    const output = toolOutput(schema, ['review_ids'])['~standard'];
    expect(JSON.stringify(output.jsonSchema.output(TARGET))).not.toContain('"review_ids"]');
    expect((await output.validate({ entities: [{ name: 'Ann' }] })).issues).toBeUndefined();
    expect((await output.validate({ entities: [{ review_ids: [] }] })).issues).toHaveLength(1);
  });
});
