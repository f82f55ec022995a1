import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';
import { ReplyRouter, type Reply } from './reply-router.js';

export const SHUTTING_DOWN = { code: -32000, message: 'Server is shutting down' };

/**
 * An in-process SDK `Transport` that serves the requests of every 2025-era session on one long-lived
 * server instance, each request under a private id (reply-router.ts). The HTTP side (status codes,
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
  private readonly router = new ReplyRouter();
  private closed = false;

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.router.deliver(message);
    return Promise.resolve();
  }

  /** Serves one request; resolves with its response, under the caller's id. */
  request(message: JSONRPCRequest, extra?: MessageExtraInfo): Promise<Reply> {
    if (this.closed) return Promise.resolve({ jsonrpc: '2.0', id: message.id, error: SHUTTING_DOWN });
    const { request, reply } = this.router.open(message);
    this.onmessage?.(request, extra);
    // Never withdrawn here (only the 2026-07-28 transport withdraws), so a reply always comes.
    return reply as Promise<Reply>;
  }

  /**
   * A client's notification, except `notifications/cancelled`: it names a request by the id its own
   * session sent, never the private id the shared instance knows it by, so passed on it could only abort
   * another session's request, whose reply the SDK then never sends (its HTTP answer would hang). MCP
   * 2025-11-25 §Cancellation lets a receiver ignore a cancellation; every tool here answers at once.
   */
  notify(message: JSONRPCNotification, extra?: MessageExtraInfo): void {
    if (!this.closed && message.method !== 'notifications/cancelled') this.onmessage?.(message, extra);
  }

  close(): Promise<void> {
    this.closed = true;
    this.router.closeAll(SHUTTING_DOWN);
    this.onclose?.();
    return Promise.resolve();
  }
}
