import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  MessageExtraInfo,
  RequestId,
  Transport,
} from '@modelcontextprotocol/server';

type Reply = { jsonrpc: '2.0'; id: RequestId } & ({ result: unknown } | { error: unknown });

/**
 * An in-process SDK `Transport` that serves the requests of every 2025-era session on one long-lived
 * server instance: each request gets a private JSON-RPC id on the way in (sessions reuse ids, and the
 * SDK keys its bookkeeping by id) and its own id back on the way out. The HTTP side (status codes,
 * sessions, media types) is the legacy handler's; this only carries messages.
 *
 * Why not a streamable HTTP transport per request, as for `initialize`: building a server, a
 * transport, a fetch Request and Response per call costs more than the search it answers (see the
 * MCP section of docs/benchmarks.md). The server is stateless between requests (its tools read the
 * current snapshot), so sharing it changes no answer. Messages the server would send on its own
 * (notifications, server-to-client requests) are dropped: this server sends none (§Listening).
 */
export class DispatchTransport implements Transport {
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  private readonly waiting = new Map<number, { id: RequestId; resolve(reply: Reply): void }>();
  private nextId = 0;
  private closed = false;

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && ('result' in message || 'error' in message) && typeof message.id === 'number') {
      const waiter = this.waiting.get(message.id);
      if (waiter) {
        this.waiting.delete(message.id);
        waiter.resolve({ ...message, id: waiter.id } as Reply);
      }
    }
    return Promise.resolve();
  }

  /** Serves one request; resolves with its response, under the caller's id. */
  request(message: JSONRPCRequest, extra?: MessageExtraInfo): Promise<Reply> {
    if (this.closed)
      return Promise.resolve({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 'Server is shutting down' } });
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.waiting.set(id, { id: message.id, resolve });
      this.onmessage?.({ ...message, id }, extra);
    });
  }

  notify(message: JSONRPCNotification, extra?: MessageExtraInfo): void {
    if (!this.closed) this.onmessage?.(message, extra);
  }

  close(): Promise<void> {
    this.closed = true;
    for (const [, waiter] of this.waiting)
      waiter.resolve({ jsonrpc: '2.0', id: waiter.id, error: { code: -32000, message: 'Server is shutting down' } });
    this.waiting.clear();
    this.onclose?.();
    return Promise.resolve();
  }
}
