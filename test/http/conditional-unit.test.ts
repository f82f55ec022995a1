import { describe, expect, it } from 'vitest';
import { etagMatches, isNotModified } from '../../src/http/conditional.js';
import { negotiateCoding } from '../../src/http/negotiation.js';

const v = { etag: '"abc"', lastModified: Date.parse('2024-05-01T10:00:00Z') };

describe('If-None-Match (RFC 9110 §13.1.2)', () => {
  it.each(['"abc"', 'W/"abc"', '"x", "abc"', '"x","abc" , "y"', '*', '"abc-gzip"', 'W/"abc-br"'])('%s matches', (h) =>
    expect(etagMatches(h, v.etag)).toBe(true),
  );
  it.each(['"abcd"', '"ab"', '"x", "y"', 'abc', '""'])('%s does not match', (h) => expect(etagMatches(h, v.etag)).toBe(false));
});

describe('isNotModified', () => {
  const lm = new Date(v.lastModified).toUTCString();
  it('uses If-Modified-Since when there is no If-None-Match', () => {
    expect(isNotModified({ 'if-modified-since': lm }, v)).toBe(true);
    expect(isNotModified({ 'if-modified-since': new Date(v.lastModified + 86400e3).toUTCString() }, v)).toBe(true);
    expect(isNotModified({ 'if-modified-since': new Date(v.lastModified - 1000).toUTCString() }, v)).toBe(false);
    expect(isNotModified({ 'if-modified-since': 'not a date' }, v)).toBe(false);
  });
  it('lets If-None-Match win over If-Modified-Since both ways', () => {
    expect(isNotModified({ 'if-none-match': '"stale"', 'if-modified-since': lm }, v)).toBe(false);
    expect(isNotModified({ 'if-none-match': '"abc"', 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' }, v)).toBe(true);
  });
  it('is false without conditions', () => expect(isNotModified({}, v)).toBe(false));
});

describe('negotiateCoding (RFC 9110 §12.5.3)', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['identity', null],
    ['*', 'br'],
    ['*;q=0', null],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['GZIP;Q=0.8', 'gzip'],
    ['br;q=abc, gzip', 'gzip'],
    ['gzip;level=1;q=0.2, br;q=0.1', 'gzip'],
  ])('%s → %s', (h, want) => expect(negotiateCoding(h)).toBe(want));
});

describe('negotiateCoding answers each header on its own', () => {
  it('answers each header in turn, also when one repeats or comes back', () => {
    const headers = ['gzip', 'gzip', 'br;q=0, gzip', undefined, 'br', '*;q=0', 'br', undefined, 'gzip, br', '', 'gzip'];
    const want = ['gzip', 'gzip', 'gzip', null, 'br', null, 'br', null, 'br', null, 'gzip'];
    expect(headers.map((h) => negotiateCoding(h))).toEqual(want);
  });
});
