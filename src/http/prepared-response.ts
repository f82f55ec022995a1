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
 * route's answer taken before Fastify, `fast-path.ts`) writes it with `writePrepared`, so the two
 * cannot differ.
 */
export interface PreparedResponse {
  status: number;
  headers: HeaderList;
  /** Empty for a 304; a HEAD answer sends the headers of the GET and no body (RFC 9110 §9.3.2). */
  body: Buffer;
  /** Called once the body has been handed to the socket: a body in a reused buffer goes back. */
  release?(): void;
}

export const EMPTY_BODY = Buffer.alloc(0);

/** Writes `prepared` as the whole answer to a request (`head`: its method was HEAD). */
export function writePrepared(response: ServerResponse, prepared: PreparedResponse, head: boolean): void {
  response.writeHead(prepared.status, prepared.headers as string[]);
  const { body, release } = prepared;
  if (head || body.length === 0) {
    response.end();
    release?.();
  } else if (release) {
    // 'finish': the last write, this body's, has been handed to the socket; a pipelined answer still
    // waiting in memory keeps its bytes until then.
    response.end(body, release);
  } else response.end(body);
}
