import {
  PerRequestHTTPServerTransport,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
} from '@modelcontextprotocol/server';
import { ReplyRouter, type Reply } from './reply-router.js';

/**
 * The SDK's per-request transport, kept connected to one long-lived server instance that serves the
 * 2026-07-28 tool calls of every client, each under a private id (reply-router.ts).
 *
 * Why a `PerRequestHTTPServerTransport`: connecting a server to one is the SDK's public way to bind the
 * instance to a 2026-07-28 revision (`Server.connect`, "binds the instance to the classified modern
 * revision when its supportedProtocolVersions lists it"); the SDK offers no other for a server that
 * is not its own `createMcpHandler`'s. Its own exchange (`handleMessage`, one request, answered with a
 * fetch `Response`) is never used: messages go through `dispatch` and replies come back through
 * `send`, as on the 2025-era DispatchTransport. So a call costs no server, transport, connect/close
 * cycle or Response (docs/benchmarks.md, MCP). Whoever connects it checks the binding with
 * `Server.getNegotiatedProtocolVersion()`.
 *
 * An error the server sends while the message is still being delivered comes from the SDK's gates
 * before any handler (era, method, `_meta` envelope): the per-request transport answers those with
 * their own HTTP statuses, so `dispatch` withdraws the request instead (no handler ran) and the caller
 * leaves it to `createMcpHandler`, which answers it exactly.
 */
export class ModernDispatchTransport extends PerRequestHTTPServerTransport {
  private readonly router = new ReplyRouter();
  /** The private id of the request being delivered, while it is. */
  private delivering: number | undefined;
  private ended = false;

  constructor(revision: string) {
    super({ classification: { era: 'modern', revision }, responseMode: 'json' });
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const id = this.router.routedId(message);
    if (id !== undefined && id === this.delivering && 'error' in message) this.router.withdraw(id);
    else this.router.deliver(message);
    return Promise.resolve();
  }

  /** Serves one request the SDK's classifier routed to its modern leg; undefined when withdrawn. */
  dispatch(message: JSONRPCRequest, classification: MessageClassification): Promise<Reply | undefined> {
    if (this.ended) return Promise.resolve(undefined);
    const { request, reply } = this.router.open(message);
    this.delivering = request.id as number;
    try {
      this.onmessage?.(request, { classification });
    } finally {
      this.delivering = undefined;
    }
    return reply;
  }

  override close(): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.ended = true;
    this.router.closeAll();
    this.onclose?.();
    return Promise.resolve();
  }
}
