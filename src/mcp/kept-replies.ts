import type { Answer } from './answer.js';
import { memoBucket } from '../snapshot/snapshot-memo.js';
import type { SnapshotSource } from '../snapshot/snapshot.js';

/** What follows a kept reply's id: `,"result":…}`, with the headers of the answer it came from. */
interface Kept {
  body: Buffer;
  headers: [string, string][];
  bytes: number;
}

/** Replies kept in the snapshot's `replies` bucket (SEARCH_CACHE_BYTES), dropped when a document lands. */
const KEPT = memoBucket<Kept>('replies', 'MCP tool-call replies');

const HEAD = Buffer.from('{"jsonrpc":"2.0","id":');

/**
 * The key under which a `tools/call`'s reply is kept: its params as JSON, when the message is one request
 * with nothing but the frame every call shares (`jsonrpc`, `method`, an `id` the SDK accepts), so the params
 * are all the SDK reads of it. Undefined when the JSON would not tell apart two params the SDK does:
 * JSON.parse gives -0 for `-0` and Infinity for `1e400`, which JSON.stringify writes as `0` and `null`.
 */
function replyKey(message: unknown): string | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const { jsonrpc, id, method, params, ...rest } = message as Record<string, unknown>;
  if (jsonrpc !== '2.0' || method !== 'tools/call' || Object.keys(rest).length > 0) return undefined;
  if ((typeof id !== 'string' && !Number.isSafeInteger(id)) || params === null || typeof params !== 'object') return undefined;
  const exact = (v: unknown): boolean =>
    typeof v === 'number' ? Number.isFinite(v) && !Object.is(v, -0) : v === null || typeof v !== 'object' || Object.values(v).every(exact);
  return exact(params) ? JSON.stringify(params) : undefined;
}

export type KeptReplies = (scope: string, message: unknown, answer: () => Promise<Answer>) => Promise<Answer>;

/**
 * Tool-call replies kept per snapshot (docs/decisions.md: what they buy, measured): a snapshot's reply to
 * the same call is the same but for its id, since the tools read nothing but the snapshot. A call is
 * answered by the SDK; from its second request on, its reply is kept, re-serialized in an order of our
 * own (`{"jsonrpc":"2.0","id":…,"result":…}`, so nothing depends on the order the SDK writes members),
 * and a repeat gets it under its own id without the SDK running. `scope` separates what the SDK's answer
 * also depends on (a session's negotiated version, the 2026-07-28 era): replies of two scopes never mix.
 * Kept in the snapshot's memo within SEARCH_CACHE_BYTES (0 keeps none), least recently used out.
 */
export function createKeptReplies(snapshots: SnapshotSource): KeptReplies {
  return async (scope, message, answer) => {
    const snapshot = snapshots.current();
    const cache = snapshot.memo.bucket(KEPT);
    // Only a complete snapshot answers every tool at once (completeSnapshot).
    const params = cache.budget > 0 && snapshot.missing.size === 0 ? replyKey(message) : undefined;
    if (params === undefined) return answer();
    const key = `${scope}\n${params}`;
    const id = Buffer.from(JSON.stringify((message as { id: string | number }).id));
    const hit = cache.peek(key);
    if (hit) return { status: 200, headers: hit.headers, body: Buffer.concat([HEAD, id, hit.body]) };
    const fresh = await answer();
    if (fresh.status !== 200 || fresh.body === null || snapshots.current() !== snapshot || !cache.askedBefore(key)) return fresh;
    const reply = JSON.parse(fresh.body.toString('utf8')) as { id?: unknown; result?: unknown };
    if (reply.id === (message as { id: unknown }).id && reply.result !== undefined) {
      const body = Buffer.from(`,"result":${JSON.stringify(reply.result)}}`);
      cache.put(key, { body, headers: fresh.headers, bytes: body.length });
    }
    return fresh;
  };
}
