import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * What the app lends for answers before Fastify (its AppKit's `beforeFastify`, src/http/app.ts): the
 * headers every answer carries (CORS), and the metrics and log line to record after one.
 */
export interface BeforeFastify {
  common: Readonly<Record<string, string>>;
  answered(request: IncomingMessage, url: string, status: number, startedAt: number): void;
}

/** An answer written before Fastify: its status, its headers after the app's common ones, its body. */
export interface EarlyAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string | Buffer;
}

/** A POST route some of whose requests are answered before Fastify, asynchronously (after their body). */
export interface EarlyRoute {
  /** The path, without query string (Fastify's router ignores it too). */
  url: string;
  /** From the request line and headers alone: may this request be answered early? */
  takes(request: IncomingMessage): boolean;
  /** The answer, or undefined to let Fastify answer it (with the body read here: bodyReadAhead). */
  answer(request: IncomingMessage, body: Buffer): Promise<EarlyAnswer | undefined>;
}

// A body this size or larger goes to Fastify unread: its bodyLimit (1 MiB by default) and its 413 apply.
const MAX_EARLY_BODY = 64 * 1024;

/** Bodies read here for requests then left to Fastify. */
const readAhead = new WeakMap<IncomingMessage, Buffer>();

/**
 * A preParsing hook for the route's Fastify scope: a request left to Fastify after its body was read
 * here is parsed from that body (Fastify's own reading, length checks and content-type parser run
 * on it unchanged), since the request stream itself is spent.
 */
export async function bodyReadAhead(request: FastifyRequest, _reply: unknown, payload: NodeJS.ReadableStream) {
  const body = readAhead.get(request.raw);
  return body === undefined ? payload : Readable.from([body], { objectMode: false });
}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    request.on('error', () => resolve(undefined));
    request.on('close', () => resolve(undefined));
  });
}

/**
 * Answers some POSTs of one route on the raw socket, before Fastify builds its request and reply and
 * runs its routing and hooks (issue 15: for MCP 2026-07-28 tool calls, the share of a call's CPU that
 * the REST search saves with src/http/fast-path.ts). The synchronous fast paths there cannot wait for
 * a request body; this one can. It takes only requests Fastify would answer without its own word on
 * the body: Host present, a Content-Length under 64 KiB (no chunked body, no Expect), and no
 * X-Forwarded-For (behind TRUST_PROXY, request.ip would differ). Whatever the route declines after
 * reading the body goes to Fastify with that body (bodyReadAhead), and is answered exactly as before.
 * An answer carries the app's common headers (CORS) first, then the route's, `Cache-Control: no-store`
 * and the length, in the order Fastify writes them; the app records its metrics and log line.
 */
export function answerBeforeFastify(
  app: FastifyInstance,
  kit: BeforeFastify,
  route: EarlyRoute,
  // Registered on the route's scope: MCP answers are never cached (register-mcp.ts).
  cacheControl = 'no-store',
): void {
  const server = app.server;
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  const next = listeners[0];
  if (listeners.length !== 1 || !next) return;
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const write = (request: IncomingMessage, response: ServerResponse, answer: EarlyAnswer, startedAt: number) => {
    const length = typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.length;
    response.writeHead(answer.status, {
      ...kit.common,
      ...answer.headers,
      'cache-control': cacheControl,
      'content-length': String(length),
    });
    response.end(answer.body);
    kit.answered(request, route.url, answer.status, startedAt);
  };
  server.removeListener('request', next);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '';
    const headers = request.headers;
    const length = Number(headers['content-length']);
    if (
      closing ||
      request.method !== 'POST' ||
      (url !== route.url && !url.startsWith(`${route.url}?`)) ||
      headers.host === undefined ||
      !(length > 0 && length < MAX_EARLY_BODY) ||
      headers['transfer-encoding'] !== undefined ||
      headers.expect !== undefined ||
      headers['x-forwarded-for'] !== undefined ||
      !route.takes(request)
    ) {
      return next(request, response);
    }
    const startedAt = performance.now();
    void readBody(request).then(async (body) => {
      // The client went away while sending: there is no one to answer.
      if (body === undefined) return void response.destroy();
      let answer: EarlyAnswer | undefined;
      try {
        answer = await route.answer(request, body);
      } catch {
        // Fastify answers it instead, with its error handling.
      }
      if (answer) return write(request, response, answer, startedAt);
      readAhead.set(request, body);
      next(request, response);
    });
  });
}
