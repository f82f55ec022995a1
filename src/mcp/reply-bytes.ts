import type { Reply } from './reply-router.js';

/**
 * A tool answer kept for many calls (one snapshot's answer to the same arguments), with its bytes
 * ready: its JSON text, which its `structuredContent` value serializes to, and that text as a JSON
 * string, which the result's text block serializes to.
 */
export interface AnswerBytes {
  /** The JSON text: the very string the result's text block holds. */
  json: string;
  /** UTF-8 of `json`: what `JSON.stringify(structuredContent)` gives. */
  jsonBytes: Buffer;
  /** UTF-8 of `JSON.stringify(json)`: what the text block's `text` serializes to. */
  textBytes: Buffer;
}

// The SDK hands a result's structuredContent object through to the transport as the handler returned it.
const answers = new WeakMap<object, AnswerBytes>();

/**
 * The bytes of a kept answer (`JSON.stringify(structured)` must be `json`: tested per tool), in one
 * buffer (`all`, for a cache's size), known to replyBytes from now on.
 */
export function answerBytes(structured: object, json: string): AnswerBytes & { all: Buffer } {
  const text = JSON.stringify(json);
  const size = Buffer.byteLength(json);
  const all = Buffer.allocUnsafe(size + Buffer.byteLength(text));
  all.write(json, 0);
  all.write(text, size);
  const bytes = { json, jsonBytes: all.subarray(0, size), textBytes: all.subarray(size), all };
  answers.set(structured, bytes);
  return bytes;
}

type Piece = string | Buffer;
type Members = (key: string, value: unknown) => Piece[] | undefined;

/** A plain object, which JSON.stringify serializes member by member (no toJSON of its own). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** JSON.stringify(value) in pieces, with `members` deciding some members' pieces. */
function objectPieces(value: Record<string, unknown>, members: Members): Piece[] {
  const out: Piece[] = ['{'];
  for (const key of Object.keys(value)) {
    const v = value[key];
    const own = members(key, v);
    const json = own ? undefined : (JSON.stringify(v) as string | undefined);
    // JSON.stringify leaves out members it cannot serialize (undefined, functions, symbols).
    if (!own && json === undefined) continue;
    out.push(`${out.length === 1 ? '' : ','}${JSON.stringify(key)}:`, ...(own ?? [json!]));
  }
  out.push('}');
  return out;
}

function contentPieces(content: unknown, bytes: AnswerBytes): Piece[] | undefined {
  if (!Array.isArray(content)) return undefined;
  const out: Piece[] = ['['];
  content.forEach((item: unknown, i) => {
    if (i > 0) out.push(',');
    if (isRecord(item) && item.text === bytes.json) out.push(...objectPieces(item, (k) => (k === 'text' ? [bytes.textBytes] : undefined)));
    else out.push((JSON.stringify(item) as string | undefined) ?? 'null');
  });
  out.push(']');
  return out;
}

function join(pieces: readonly Piece[]): Buffer {
  let total = 0;
  for (const p of pieces) total += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const p of pieces) at += typeof p === 'string' ? out.write(p, at) : p.copy(out, at);
  return out;
}

/**
 * A reply as JSON: exactly the bytes of `JSON.stringify(reply)`, but a kept answer's structuredContent
 * and text are copied from its bytes instead of being serialized and encoded again on every call
 * (issue 15: the reply carries the answer twice, and serializing it was a fifth of a call's CPU).
 * Every other member, in the order the SDK built it, is serialized as usual.
 */
export function replyBytes(reply: Reply): string | Buffer {
  const result = 'result' in reply ? reply.result : undefined;
  const structured = isRecord(result) ? result.structuredContent : undefined;
  const bytes = isRecord(structured) ? answers.get(structured) : undefined;
  if (!bytes || !isRecord(result)) return JSON.stringify(reply);
  const resultMembers: Members = (key, value) =>
    key === 'structuredContent' ? [bytes.jsonBytes] : key === 'content' ? contentPieces(value, bytes) : undefined;
  return join(
    objectPieces(reply as Record<string, unknown>, (key) => (key === 'result' ? objectPieces(result, resultMembers) : undefined)),
  );
}

/** The replies of a batch as one JSON array. */
export function batchBytes(replies: readonly Piece[]): Buffer {
  return join(['[', ...replies.flatMap((r, i) => (i === 0 ? [r] : [',', r])), ']']);
}
