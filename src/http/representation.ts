import type { IncomingHttpHeaders } from 'node:http';
import { codedEtag, type ContentCoding, type Representation } from '../snapshot/rendered-document.js';
import { isNotModified } from './conditional.js';
import { CORS_HEADERS } from './cors.js';
import { negotiateCoding } from './negotiation.js';
import { EMPTY_BODY, type HeaderList, type PreparedResponse } from './prepared-response.js';

// Data changes rarely and revalidation is a cheap 304, so shared caches may keep a response briefly.
export const CACHE_CONTROL = 'public, max-age=60';
// Compressing a few hundred bytes costs more than it saves.
const MIN_COMPRESS_BYTES = 1024;

/** What a GET or HEAD answer is chosen by: its method and request headers. */
export interface RequestHead {
  method?: string | undefined;
  headers: IncomingHttpHeaders;
}

/** What a route puts around a representation. */
export interface ResponseFrame {
  /** Headers after CORS and before the caching ones: a route's own (Link, Content-Security-Policy, ...). */
  leading?: HeaderList;
  vary: string;
  /** The media type sent, when the route negotiated another than the representation's own. */
  contentType?: string;
}

/** Last-Modified of a representation as an HTTP date (RFC 9110 §5.6.7). */
export function httpDate(lastModified: number): string {
  return new Date(lastModified).toUTCString();
}

/**
 * The headers every answer of `frame` with this Last-Modified starts with: CORS, the route's own, then
 * Vary, Cache-Control and Last-Modified. RFC 9110 §15.4.5: a 304 carries the ETag, Vary and
 * Cache-Control a 200 would, and Last-Modified as sent today.
 */
export function answerHeaders(lastModified: number, frame: ResponseFrame): HeaderList {
  return [
    ...CORS_HEADERS,
    ...(frame.leading ?? []),
    'vary',
    frame.vary,
    'cache-control',
    CACHE_CONTROL,
    'last-modified',
    httpDate(lastModified),
  ];
}

/** A 200's headers: `start` (answerHeaders), the media type, the ETag, the coding when there is one, the length. */
export function okHeaders(start: HeaderList, contentType: string, etag: string, length: number, coding?: ContentCoding): HeaderList {
  return coding
    ? [...start, 'content-type', contentType, 'etag', etag, 'content-encoding', coding, 'content-length', String(length)]
    : [...start, 'content-type', contentType, 'etag', etag, 'content-length', String(length)];
}

function okResponse(start: HeaderList, contentType: string, etag: string, body: Buffer, coding?: ContentCoding): PreparedResponse {
  return { status: 200, headers: okHeaders(start, contentType, etag, body.length, coding), body };
}

/** A 304: `start` and the ETag of the representation the client holds (no length: RFC 9110 §8.6). */
export function notModifiedResponse(start: HeaderList, etag: string): PreparedResponse {
  return { status: 304, headers: [...start, 'etag', etag], body: EMPTY_BODY };
}

/** The coding an answer of `body` uses for this Accept-Encoding; null for identity. */
export function codingFor(body: Buffer, acceptEncoding: string | undefined): ContentCoding | null {
  return body.length >= MIN_COMPRESS_BYTES ? negotiateCoding(acceptEncoding) : null;
}

/**
 * A representation with every answer a GET or HEAD of it can get, each prepared on first use and kept:
 * 200 or 304, identity or a coding. A compressed body is made once, asynchronously; until it exists an
 * answer that needs it is a promise.
 */
export interface PreparedRepresentation {
  readonly rep: Representation;
  /** Bytes it holds: its body and the coded bodies made so far (a memo bucket's measure). */
  readonly bytes: number;
  answer(request: RequestHead): PreparedResponse | Promise<PreparedResponse>;
}

type Variant = ContentCoding | 'identity';

/**
 * The answers of `rep` in `frame`. `grown` is told when a coded body has been added, so that whoever
 * keeps it can count the new bytes.
 */
export function prepareRepresentation(rep: Representation, frame: ResponseFrame, grown?: () => void): PreparedRepresentation {
  const start = answerHeaders(rep.lastModified, frame);
  const contentType = frame.contentType ?? rep.contentType;
  const ok: Partial<Record<Variant, PreparedResponse>> = {};
  const notModified: Partial<Record<Variant, PreparedResponse>> = {};
  const pending: Partial<Record<ContentCoding, Promise<PreparedResponse>>> = {};
  let coded = 0;
  return {
    rep,
    get bytes() {
      return rep.body.length + coded;
    },
    answer(request) {
      const coding = codingFor(rep.body, request.headers['accept-encoding']);
      const variant: Variant = coding ?? 'identity';
      if (isNotModified(request.headers, rep))
        return (notModified[variant] ??= notModifiedResponse(start, coding ? codedEtag(rep.etag, coding) : rep.etag));
      const done = ok[variant];
      if (done) return done;
      if (!coding) return (ok.identity = okResponse(start, contentType, rep.etag, rep.body));
      return (pending[coding] ??= rep.encoded(coding).then(
        (v) => {
          coded += v.body.length;
          grown?.();
          return (ok[coding] = okResponse(start, contentType, v.etag, v.body, coding));
        },
        (error: unknown) => {
          delete pending[coding];
          throw error;
        },
      ));
    },
  };
}
