import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/import/decode-text.js';
import { readRecords } from '../../src/import/raw-records.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('decodeUtf8', () => {
  it('drops a byte order mark and accepts valid UTF-8', () => {
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], '{"a":"Zoë"}'), 'json')).toEqual({ text: '{"a":"Zoë"}', problems: [] });
  });
  it('names the line and field of each invalid sequence', () => {
    const out = decodeUtf8(bytes('{"id":"a"}\n{"id":"b","text":"caf', [0xe9], '"}\n{"author":{"name":"', [0xc3, 0x28], '"}}\n'), 'json');
    expect(out.problems).toEqual([
      { line: 2, field: 'text', message: expect.stringContaining('0xe9') as unknown as string },
      { line: 3, field: 'name', message: expect.stringContaining('in field "name"') as unknown as string },
    ]);
  });
  it('refuses overlong forms and surrogates', () => {
    expect(decodeUtf8(bytes([0xc0, 0xaf]), 'json').problems).toHaveLength(2);
    expect(decodeUtf8(bytes([0xed, 0xa0, 0x80]), 'json').problems.length).toBeGreaterThan(0);
  });
});

describe('readRecords on bytes', () => {
  it('makes invalid UTF-8 in .json and .jsonl an error, and reads a BOM-led file', () => {
    const bad = readRecords(bytes('[{"id":"a","text":"', [0xff], '"}]'), 'json');
    expect(bad.records).toEqual([]);
    expect(bad.problems).toEqual([
      { record: 0, line: 1, path: 'text', message: expect.stringMatching(/invalid UTF-8/) as unknown as string },
    ]);
    const bom = readRecords(bytes([0xef, 0xbb, 0xbf], '{"id":"a"}\n'), 'jsonl');
    expect(bom.problems).toEqual([]);
    expect(bom.records).toHaveLength(1);
  });
});
