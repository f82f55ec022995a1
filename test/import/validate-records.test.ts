import { describe, expect, it } from 'vitest';
import { BusinessSchema } from '../../src/domain/business.js';
import { createMentionMatcher } from '../../src/domain/mentions.js';
import { reviewContentHash } from '../../src/domain/import-plan.js';
import { toIncoming, validateFiles, formatProblem } from '../../src/import/validate-records.js';

const ok = (id: string, extra: object = {}) => ({
  id,
  date: '2024-01-01',
  rating: 4,
  text: 'Mike was great',
  author: { name: 'A.' },
  verified: true,
  ...extra,
});

describe('validateFiles (contract §3)', () => {
  it('lists every bad record with its number, id and field', () => {
    const raw = {
      records: [ok('a'), ok('b', { rating: 7 }), ok('c', { date: '2025-02-30' }), ok('d'), ok('e', { text: 42 })].map((value, i) => ({
        record: i + 1,
        value,
      })),
      problems: [],
    };
    const out = validateFiles([{ name: 'f.json', raw }], { assumeVerified: false });
    expect(out.problems.map((p) => [p.record, p.id, p.path])).toEqual([
      [2, 'b', 'rating'],
      [3, 'c', 'date'],
      [5, 'e', 'text'],
    ]);
    expect(formatProblem(out.problems[0]!)).toMatch(/^f\.json: record 2 \(id b\): rating: /);
  });
  it('requires verified unless --assume-verified, and rejects duplicate ids', () => {
    const raw = {
      records: [
        { record: 1, value: ok('a', { verified: undefined }) },
        { record: 2, line: 9, value: ok('b') },
        { record: 3, line: 10, value: ok('b') },
      ],
      problems: [],
    };
    const strict = validateFiles([{ name: 'f.jsonl', raw }], { assumeVerified: false });
    // One problem per file for the verified decision, after the per-record ones.
    expect(strict.problems.map((p) => p.path)).toEqual(['id', 'verified']);
    expect(formatProblem(strict.problems[0]!)).toMatch(/line 10/);
    expect(strict.problems[1]!.message).toMatch(/record 1\b.*--assume-verified/);
    const lenient = validateFiles([{ name: 'f.jsonl', raw }], { assumeVerified: true });
    expect(lenient.problems.map((p) => p.path)).toEqual(['id']);
  });
});

describe('toIncoming', () => {
  const business = BusinessSchema.parse({
    id: 'b',
    name: 'B',
    technicians: [
      { id: 'mike', name: 'Mike R', aliases: ['Mike'] },
      { id: 'ann', name: 'Ann', aliases: [] },
    ],
  });
  it('keeps every mention tag; those the text already yields are left out of the content hash', () => {
    const parsed = validateFiles(
      [
        {
          name: 'f',
          raw: {
            records: [{ record: 1, value: ok('a', { mentions: { technicians: [{ id: 'mike', name: 'Mike R' }, 'ann'] } }) }],
            problems: [],
          },
        },
      ],
      { assumeVerified: false },
    );
    const incoming = toIncoming(parsed.records[0]!.review, createMentionMatcher(business));
    expect(incoming.mention_tags.technicians).toEqual(['mike', 'ann']);
    expect(incoming.derived_tags?.technicians).toEqual(['mike']);
    // The same record as an export of it without the derived tag: the same content.
    const { derived_tags: _d, ...plain } = incoming;
    expect(reviewContentHash(incoming)).toBe(
      reviewContentHash({ ...plain, mention_tags: { ...plain.mention_tags, technicians: ['ann'] } }),
    );
    expect(incoming).toMatchObject({
      title: null,
      language: null,
      author: { name: 'A.', location: null },
      source: { platform: 'website', url: null },
      hidden: false,
    });
  });
});
