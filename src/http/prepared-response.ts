import type { ServerResponse } from 'node:http';

/**
 * Headers as node:http's flat list, `[name, value, name, value, ...]`, which `writeHead` takes as it is:
 * the whole header block in one call, without a for-in over an object per answer. A list is also what
 * can be extended cheaply per answer: on Node 20 (V8 11.3) a spread object with more keys after it,
 * `{ ...headers, etag }`, took 12-17 µs a call where `[...list, 'etag', etag]` takes 0.07 µs (measured
 * in a loop on the bench host); it was a tenth of a first-time search's CPU. Lists are shared by many
 * answers, so never changed once built.
 */
export type HeaderList = readonly string[];

/**
 * One answer, complete: status, every header in the order written, body. Every answer built from a
 * representation is one of these, and every path that sends it (the route Fastify runs, or the same
 * route's answer taken before Fastify, `fast-path.ts`) writes it with the app's one writer, so the two
 * cannot differ.
 */
export interface PreparedResponse {
  status: number;
  headers: HeaderList;
  /**
   * Empty for a 304; a HEAD answer sends the headers of the GET and no body (RFC 9110 §9.3.2). Parts
   * are written in order: views of bytes the snapshot holds are sent without a copy.
   */
  body: Buffer | readonly Buffer[];
  /** Called once the body has been handed to the socket: a body in a reused buffer goes back. */
  release?(): void;
}

export const EMPTY_BODY = Buffer.alloc(0);

/** Writes a prepared response as the whole answer to a request (`head`: its method was HEAD). */
export type PreparedWriter = (response: ServerResponse, prepared: PreparedResponse, head: boolean) => void;

/** Bytes handed to the socket at a time: between two pieces of a larger body the writer waits for 'drain'. */
const PIECE = 64 * 1024;

/**
 * The one writer of prepared responses. It respects the socket's backpressure: a body larger than a
 * piece is handed over a piece at a time, the next once the socket has drained (parts that are views of
 * the snapshot's bytes stay views). An answer that stops moving is given up: the socket is destroyed
 * once a write has waited `writeTimeoutMs` for the client to read, so a client that never reads holds
 * nothing for longer than that.
 */
export function createPreparedWriter(options: { writeTimeoutMs: number }): PreparedWriter {
  const { writeTimeoutMs } = options;
  /** Waits for the client to read what is buffered, at most writeTimeoutMs; then gives the answer up. */
  const waitFor = (response: ServerResponse, event: 'drain' | 'finish', then?: () => void) => {
    const timer = setTimeout(() => response.destroy(), writeTimeoutMs);
    timer.unref();
    const settled = () => clearTimeout(timer);
    response.once('close', settled);
    response.once(event, () => {
      settled();
      response.off('close', settled);
      then?.();
    });
  };
  /** After the last write: if the socket could not take it all at once, the client must read it in time. */
  const ended = (response: ServerResponse) => {
    if ((response.socket?.writableLength ?? 0) > 0) waitFor(response, 'finish');
  };
  return (response, prepared, head) => {
    response.writeHead(prepared.status, prepared.headers as string[]);
    const { body, release } = prepared;
    if (Buffer.isBuffer(body) && (head || body.length <= PIECE)) {
      // The common answer, in one write. 'finish': this body has been handed to the socket; a pipelined
      // answer still waiting in memory keeps its bytes until then.
      if (head || body.length === 0) {
        response.end();
        release?.();
      } else {
        if (release) response.end(body, release);
        else response.end(body);
        ended(response);
      }
      return;
    }
    const parts: readonly Buffer[] = Buffer.isBuffer(body) ? [body] : body;
    if (head) {
      response.end();
      release?.();
      return;
    }
    let part = 0;
    let offset = 0;
    const pump = () => {
      for (;;) {
        const buffer = parts[part]!;
        const piece = buffer.subarray(offset, offset + PIECE);
        offset += piece.length;
        if (offset >= buffer.length) {
          part++;
          offset = 0;
        }
        if (part >= parts.length) {
          response.end(piece, release);
          ended(response);
          return;
        }
        if (!response.write(piece)) return waitFor(response, 'drain', pump);
      }
    };
    pump();
  };
}
