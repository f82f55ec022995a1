import { describe, expect, it } from 'vitest';
import { formatOf, readRecords } from '../../src/import/raw-records.js';

describe('readRecords', () => {
  it('reads a dataset document and a bare array, numbering records from 1', () => {
    const doc = readRecords(JSON.stringify({ business: { id: 'b' }, reviews: [{ id: 'a' }, { id: 'b' }] }), 'json');
    expect(doc.business).toEqual({ id: 'b' });
    expect(doc.records.map((r) => r.record)).toEqual([1, 2]);
    expect(readRecords('[{"id":"x"}]', 'json').records).toEqual([{ record: 1, value: { id: 'x' } }]);
  });
  it('reports malformed JSON and wrong top-level shapes', () => {
    expect(readRecords('{"reviews": [', 'json').problems[0]?.message).toMatch(/not valid JSON/);
    expect(readRecords('"x"', 'json').problems[0]?.message).toMatch(/dataset document/);
    expect(readRecords('{"reviews": 3}', 'json').problems[0]?.message).toMatch(/array/);
  });
  it('numbers JSONL records by their line, skipping blank lines', () => {
    const out = readRecords('{"id":"a"}\n\n{"id": \n{"id":"c"}\r\n', 'jsonl');
    expect(out.records.map((r) => [r.line, (r.value as { id: string }).id])).toEqual([
      [1, 'a'],
      [4, 'c'],
    ]);
    expect(out.problems).toEqual([
      { record: 2, line: 3, column: 8, message: expect.stringMatching(/not valid JSON/) as unknown as string },
    ]);
  });
  it('reads CSV with dotted columns, lists, booleans, numbers and empty cells as absent', () => {
    const csv = [
      'id,date,rating,text,author.name,author.location,verified,hidden,mentions.technicians',
      'a,2024-01-01,5,"Hello, ""world""",Ann B.,,yes,0,mike; jose',
      'b,2024-01-02,x,"two',
      'lines",Bo,,false,,',
    ].join('\n');
    const out = readRecords(csv, 'csv');
    // A bad value is listed with its line and the value itself (contract §3.1), not passed on.
    expect(out.problems).toEqual([
      { record: 2, line: 3, id: 'b', path: 'rating', message: expect.stringContaining('"x"') as unknown as string },
    ]);
    expect(out.records[0]).toEqual({
      record: 1,
      line: 2,
      skip: [],
      value: {
        id: 'a',
        date: '2024-01-01',
        rating: 5,
        text: 'Hello, "world"',
        author: { name: 'Ann B.' },
        verified: true,
        hidden: false,
        mentions: { technicians: ['mike', 'jose'] },
      },
    });
    expect(out.records[1]?.value).toMatchObject({ text: 'two\nlines', verified: false });
    expect(out.records[1]?.skip).toContain('rating');
    // The record starts on line 3, where its quoted cell opens.
    expect(out.records[1]?.line).toBe(3);
  });
  it('chooses the format by extension or flag', () => {
    expect(formatOf('a/b.JSONL')).toBe('jsonl');
    expect(formatOf('x.txt', 'csv')).toBe('csv');
    expect(() => formatOf('x.txt')).toThrow(/--format/);
  });
});

describe('CSV line numbers', () => {
  const lines = (csv: string) => readRecords(csv, 'csv').records.map((r) => [(r.value as { id: string }).id, r.line]);
  it('names each record by the line it starts on, across quoted newlines and blank lines (CRLF)', () => {
    expect(lines('id,text\r\na,"one\r\ntwo"\r\n\r\nb,x\r\nc,"p\r\nq\r\nr"\r\nd,y')).toEqual([
      ['a', 2],
      ['b', 5],
      ['c', 6],
      ['d', 9],
    ]);
  });
  it('does the same for LF files with a trailing newline', () => {
    expect(lines('id,text\n\na,"one\ntwo"\nb,x\n')).toEqual([
      ['a', 3],
      ['b', 5],
    ]);
  });
});
