import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerBytes, batchBytes, replyBytes } from './reply-bytes.js';
import type { Reply } from './reply-router.js';

const text = (bytes: string | Buffer) => (typeof bytes === 'string' ? bytes : bytes.toString('utf8'));

describe('replyBytes', () => {
  // Strings with what JSON escapes or encodes in more than one byte: quotes, backslashes, controls, U+2028, astral.
  const tricky = fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u0001', '\u2028', 'é', '😀', '/', '<') });
  const json = fc.jsonValue().map((v) => v as unknown);

  it('is JSON.stringify(reply), byte for byte, for kept answers in any reply the SDK could build', () => {
    fc.assert(
      fc.property(
        fc.dictionary(tricky, fc.oneof(json, fc.constant(undefined))),
        tricky,
        fc.dictionary(tricky, json),
        fc.array(fc.oneof(fc.constant('answer'), json, fc.record({ type: fc.constant('text'), text: tricky })), { maxLength: 3 }),
        fc.oneof(fc.integer(), tricky),
        fc.boolean(),
        (structured, note, meta, others, id, extraFirst) => {
          const answer = JSON.stringify(structured);
          answerBytes(structured, answer);
          const block = { type: 'text', text: answer, ...(extraFirst ? {} : { annotations: { note } }) };
          const content = others.map((o) => (o === 'answer' ? block : o));
          const result = {
            ...(extraFirst ? { isError: undefined, note } : {}),
            content: [block, ...content],
            structuredContent: structured,
            _meta: meta,
          };
          const reply = { result, jsonrpc: '2.0', id } as Reply;
          expect(text(replyBytes(reply))).toBe(JSON.stringify(reply));
        },
      ),
    );
  });

  it('copies a kept answer instead of serializing it, and serializes everything else as usual', () => {
    const structured = { reviews: [{ id: 'a', text: 'é "quoted"' }], count: 1 };
    const json = JSON.stringify(structured);
    const bytes = answerBytes(structured, json);
    const reply = { result: { content: [{ type: 'text', text: json }], structuredContent: structured }, jsonrpc: '2.0', id: 3 } as Reply;
    const out = replyBytes(reply);
    expect(Buffer.isBuffer(out)).toBe(true);
    // Bytes made once: changing them shows in the reply (never done outside this test).
    bytes.jsonBytes.write('X', 1);
    expect(text(replyBytes(reply))).toContain('"structuredContent":{X');
    // Not a kept answer: plain JSON.stringify.
    const other = { ...reply, result: { content: [], structuredContent: { ...structured } } } as Reply;
    expect(replyBytes(other)).toBe(JSON.stringify(other));
    expect(replyBytes({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } })).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}',
    );
  });

  it('joins a batch as a JSON array', () => {
    expect(batchBytes(['{"a":1}', Buffer.from('{"b":"é"}')]).toString('utf8')).toBe('[{"a":1},{"b":"é"}]');
  });
});
