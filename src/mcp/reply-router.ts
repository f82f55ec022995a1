import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/server';

/** A JSON-RPC response, under the id its request arrived with. */
export type Reply = { jsonrpc: '2.0'; id: RequestId } & ({ result: unknown } | { error: unknown });

/**
 * Matches the replies of one long-lived server instance to the requests of many clients. Each request
 * gets a private JSON-RPC id on the way in (clients reuse ids, and the SDK keys its bookkeeping by id)
 * and its own id back on the way out; the in-process transports (dispatch-transport.ts,
 * modern-dispatch-transport.ts) carry the messages.
 */
export class ReplyRouter {
  private readonly waiting = new Map<number, { id: RequestId; resolve(reply: Reply | undefined): void }>();
  private nextId = 0;

  /** The request under a private id, and its reply under the caller's id (undefined when withdrawn). */
  open(message: JSONRPCRequest): { request: JSONRPCRequest; reply: Promise<Reply | undefined> } {
    const id = ++this.nextId;
    const reply = new Promise<Reply | undefined>((resolve) => this.waiting.set(id, { id: message.id, resolve }));
    return { request: { ...message, id }, reply };
  }

  /** The private id of a response the server sent, when it answers an open request. */
  routedId(message: JSONRPCMessage): number | undefined {
    if (!('id' in message) || !('result' in message || 'error' in message) || typeof message.id !== 'number') return undefined;
    return this.waiting.has(message.id) ? message.id : undefined;
  }

  /** Settles an open request with the server's response (a key order kept: `id` is replaced in place). */
  deliver(message: JSONRPCMessage): void {
    const id = this.routedId(message);
    const waiter = id === undefined ? undefined : this.waiting.get(id);
    if (id === undefined || !waiter) return;
    this.waiting.delete(id);
    waiter.resolve({ ...message, id: waiter.id } as Reply);
  }

  /** Settles an open request without a reply. */
  withdraw(id: number): void {
    const waiter = this.waiting.get(id);
    this.waiting.delete(id);
    waiter?.resolve(undefined);
  }

  /** Settles every open request with `error` under each one's own id, or withdraws them without one. */
  closeAll(error?: { code: number; message: string }): void {
    for (const [, waiter] of this.waiting) waiter.resolve(error ? { jsonrpc: '2.0', id: waiter.id, error } : undefined);
    this.waiting.clear();
  }
}
