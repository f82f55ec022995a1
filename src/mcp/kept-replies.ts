import { createAnswerCache } from '../snapshot/answer-cache.js';
import { searchCacheBudget } from '../snapshot/queries.js';
import type { SnapshotSource } from '../snapshot/snapshot.js';

const ID = Buffer.from(',"id":');

/** A reply's bytes up to its id's value (`…,"id":`); the reply is those, the id as JSON, and `}`. */
interface Kept {
  body: Buffer;
}

/**
 * The key under which a `tools/call`'s reply is kept: its params as JSON, when the rest of the message
 * is the frame every call shares (`jsonrpc`, `method`, an `id` the SDK accepts: a string or a safe
 * integer) and nothing else, so the params are all the SDK reads of it. Undefined when the JSON would
 * not tell two params apart that the SDK does: JSON.parse gives -0 for `-0` and Infinity for `1e400`,
 * which JSON.stringify writes as `0` and `null`, and validation names what it received.
 */
export function replyKey(message: unknown): string | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const m = message as Record<string, unknown>;
  const id = m.id;
  if (Object.keys(m).length !== 4 || m.jsonrpc !== '2.0' || m.method !== 'tools/call') return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  const params = m.params as { name?: unknown } | null | undefined;
  if (params === null || typeof params !== 'object' || Array.isArray(params) || typeof params.name !== 'string') return undefined;
  // A walk, then a plain stringify: a replacer function made JSON.stringify several times slower, and
  // this runs on every tool call (issue 15, MCP row).
  return exactNumbers(params) ? JSON.stringify(params) : undefined;
}

/** Whether every number in a parsed JSON value reads back the same from JSON.stringify (no -0, no ±Infinity). */
function exactNumbers(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.every(exactNumbers);
  for (const key in value) if (!exactNumbers((value as Record<string, unknown>)[key])) return false;
  return true;
}

export interface KeptReplies {
  /**
   * The reply to one JSON-RPC `message` of `scope` (an era or a session's negotiated protocol version:
   * replies of different scopes never mix). `answer()` is how the SDK answers it; a snapshot's reply to
   * the same params is the same bytes but for the id, so a reply is kept per snapshot from the second
   * such request on (as REST keeps search answers, answer-cache.ts), and a repeat gets those bytes with
   * its own id without `answer()` running. `undefined` from `answer()` (left to another handler) is
   * passed on and never kept.
   */
  reply(scope: string, message: unknown, answer: () => Promise<string | Buffer | undefined>): Promise<string | Buffer | undefined>;
}

/**
 * Tool-call replies kept per snapshot for both MCP eras within one budget (SEARCH_CACHE_BYTES by
 * default; 0 keeps none). Only a message `replyKey` accepts is kept, only while one complete snapshot
 * was current from the request to its reply (the tools read nothing else), and only a reply that ends
 * with the request's own id as the SDK writes it (`{"result":…,"jsonrpc":"2.0","id":…}`).
 */
export function createKeptReplies(deps: { snapshots?: SnapshotSource; budget?: () => number }): KeptReplies {
  const cache = createAnswerCache<Kept>(deps.budget ?? searchCacheBudget);
  return {
    async reply(scope, message, answer) {
      const snapshot = deps.snapshots?.current();
      // Only a complete snapshot answers every tool at once (completeSnapshot).
      const params = snapshot && snapshot.missing.size === 0 ? replyKey(message) : undefined;
      if (snapshot === undefined || params === undefined) return answer();
      // A scope is a protocol version or an era's name, never a newline, and JSON.stringify writes none.
      const key = `${scope}\n${params}`;
      const idTail = Buffer.from(`${JSON.stringify((message as { id: string | number }).id)}}`);
      const hit = cache.peek(snapshot, key);
      if (hit) return Buffer.concat([hit.body, idTail]);
      const reply = await answer();
      if (reply === undefined || deps.snapshots!.current() !== snapshot) return reply;
      const bytes = typeof reply === 'string' ? Buffer.from(reply) : reply;
      const at = bytes.length - idTail.length;
      const ends = at > ID.length && bytes.subarray(at - ID.length, at).equals(ID) && bytes.subarray(at).equals(idTail);
      if (ends && cache.askedBefore(snapshot, key)) cache.put(snapshot, key, { body: Buffer.from(bytes.subarray(0, at)) });
      return reply;
    },
  };
}
