import { describe, expect, it } from 'vitest';
import { createRepresentation } from '../../src/snapshot/rendered-document.js';
import type { PreparedResponse } from '../../src/http/prepared-response.js';
import { answerHeaders, prepareRepresentation } from '../../src/http/representation.js';

const CORS = ['access-control-allow-origin', '*', 'access-control-expose-headers', 'ETag, Last-Modified, Link, Mcp-Session-Id'];
const at = Date.parse('2026-05-01T10:00:00Z');

describe('answerHeaders', () => {
  it('starts with CORS, then the route headers, Vary, Cache-Control and Last-Modified', () => {
    expect(answerHeaders(at, { leading: ['link', '<h>; rel="hub"'], vary: 'Accept-Encoding' })).toEqual([
      ...CORS,
      'link',
      '<h>; rel="hub"',
      'vary',
      'Accept-Encoding',
      'cache-control',
      'public, max-age=60',
      'last-modified',
      'Fri, 01 May 2026 10:00:00 GMT',
    ]);
  });
});

describe('a prepared representation', () => {
  const big = createRepresentation(JSON.stringify({ text: 'x'.repeat(4000) }), 'application/json', at);
  const frame = { vary: 'Accept-Encoding' };

  it('answers 200 with the type, tag and length, and the same object to the next request', () => {
    const prepared = prepareRepresentation(big, frame);
    const ok = prepared.answer({ method: 'GET', headers: {} });
    expect(ok).toEqual({
      status: 200,
      headers: [
        ...answerHeaders(at, frame),
        'content-type',
        'application/json',
        'etag',
        big.etag,
        'content-length',
        String(big.body.length),
      ],
      body: big.body,
    });
    expect(prepared.answer({ method: 'HEAD', headers: {} })).toBe(ok);
  });

  it('answers 304 with the tag of the coding the client would get, and no length', () => {
    const prepared = prepareRepresentation(big, frame);
    const gzipTag = big.etag.replace(/"$/, '-gzip"');
    expect(prepared.answer({ headers: { 'if-none-match': big.etag, 'accept-encoding': 'gzip' } })).toEqual({
      status: 304,
      headers: [...answerHeaders(at, frame), 'etag', gzipTag],
      body: Buffer.alloc(0),
    });
    expect(prepared.answer({ headers: { 'if-none-match': gzipTag } })).toMatchObject({
      status: 304,
      headers: [...answerHeaders(at, frame), 'etag', big.etag],
    });
  });

  it('compresses once, counts the coded bytes, and tells whoever keeps it', async () => {
    let grown = 0;
    const prepared = prepareRepresentation(big, { ...frame, contentType: 'application/feed+json' }, () => grown++);
    const held = prepared.bytes;
    const pending = prepared.answer({ headers: { 'accept-encoding': 'br' } });
    expect(pending).toBeInstanceOf(Promise);
    const br = await pending;
    expect(br.headers).toEqual(
      expect.arrayContaining(['content-type', 'application/feed+json', 'content-encoding', 'br', 'etag', big.etag.replace(/"$/, '-br"')]),
    );
    expect(prepared.answer({ headers: { 'accept-encoding': 'br' } })).toBe(br);
    expect(grown).toBe(1);
    expect(prepared.bytes).toBe(held + (br.body as Buffer).length);
    expect(held).toBeGreaterThanOrEqual(big.body.length);
  });

  it('never compresses a small body', () => {
    const small = createRepresentation('{"a":1}', 'application/json', at);
    const ok = prepareRepresentation(small, frame).answer({ headers: { 'accept-encoding': 'br, gzip' } });
    expect(ok).not.toBeInstanceOf(Promise);
    expect((ok as PreparedResponse).headers).not.toContain('content-encoding');
  });
});
