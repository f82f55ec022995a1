import { describe, expect, it } from 'vitest';
import { headerList, notModifiedHeaders } from './representation.js';
import { createRepresentation } from '../snapshot/rendered-document.js';

describe('headerList', () => {
  it("lists every header of an object as node:http's flat list, in the object's order", () => {
    expect(headerList({ b: '1', a: '2', 'last-modified': 'Fri, 01 May 2026 10:00:00 GMT' })).toEqual([
      'b',
      '1',
      'a',
      '2',
      'last-modified',
      'Fri, 01 May 2026 10:00:00 GMT',
    ]);
    expect(headerList({})).toEqual([]);
  });

  it('keeps the 304 headers of a document in the order the full path writes them', () => {
    const rep = createRepresentation('{"a":1}', 'application/json', Date.parse('2026-05-01T10:00:00Z'));
    const list = headerList(notModifiedHeaders(rep, { 'access-control-allow-origin': '*' }, 'Accept-Encoding').gzip);
    expect(list).toEqual([
      'access-control-allow-origin',
      '*',
      'vary',
      'Accept-Encoding',
      'cache-control',
      'public, max-age=60',
      'last-modified',
      'Fri, 01 May 2026 10:00:00 GMT',
      'etag',
      rep.etag.replace(/"$/, '-gzip"'),
    ]);
  });
});
