import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toIssues } from '../../src/domain/errors.js';

describe('toIssues', () => {
  const schema = z.object({
    query: z.string().max(3),
    author: z.object({ name: z.string() }),
    rating: z.int().max(5, 'rating must be at most 5'),
  });
  const issues = (input: unknown) => {
    const r = schema.safeParse(input);
    return r.success ? [] : toIssues(r.error, ['review']);
  };
  it('names the field in every message, whatever wrote it', () => {
    const out = issues({ query: 'long', author: {}, rating: 9 });
    expect(out.map((i) => i.path.join('.'))).toEqual(['review.query', 'review.author.name', 'review.rating']);
    for (const i of out) expect(i.message).toContain(String(i.path.at(-1)));
  });
  it('says a missing field is required', () => {
    expect(issues({ query: 'a', rating: 1 }).map((i) => i.message)).toEqual(['review.author is required']);
  });
  it('keeps messages that already name their field', () => {
    expect(issues({ query: 'a', author: { name: 'x' }, rating: 9 })[0]?.message).toBe('rating must be at most 5');
  });
});
