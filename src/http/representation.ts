import type { IncomingHttpHeaders } from 'node:http';
import { codedEtag, type ContentCoding, type EncodedVariant, type Representation } from '../snapshot/rendered-document.js';
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

/** What a prepared answer is made of. */
export interface AnswerSource {
  /** The body: one buffer, or parts written in order (views of bytes the snapshot holds are never copied). */
  body: Buffer | readonly Buffer[];
  length: number;
  contentType: string;
  /** A strong entity tag of the body (RFC 9110 §8.8.3). */
  etag: string;
  lastModified: number;
  /** Another content was published within the same second (Representation's `weakDate`). */
  weakDate?: boolean;
  /**
   * Its coded variant, made once. Absent: the body is always sent as it is, which every client accepts
   * unless it says `identity;q=0` (RFC 9110 §12.5.3): an answer computed per request that is too large to
   * compress per request (see `perRequestCoding`).
   */
  encoded?(coding: ContentCoding): Promise<EncodedVariant>;
  /** The bytes it keeps alive of its own (not the snapshot's): a memo bucket's measure. Its length by default. */
  ownBytes?: number;
}

/**
 * Answers computed per request (since, search, a review) are compressed only up to this size: beyond it,
 * compressing each distinct request is seconds of CPU a client can ask for at will (a since answer for
 * an old date is 35 MB at 50k reviews), and a client that wants everything compressed has
 * /reviews.json, compressed once per snapshot.
 */
export const PER_REQUEST_COMPRESS_MAX = 1024 * 1024;

/**
 * An answer with every answer a GET or HEAD of it can get, each prepared on first use and kept: 200 or
 * 304, identity or a coding. A compressed body is made once, asynchronously; until it exists an answer
 * that needs it is a promise.
 */
export interface PreparedAnswer {
  readonly etag: string;
  /** Bytes it keeps alive: its own body and the coded bodies made so far (a memo bucket's measure). */
  readonly bytes: number;
  answer(request: RequestHead): PreparedResponse | Promise<PreparedResponse>;
}

/** @deprecated the former name of PreparedAnswer. */
export type PreparedRepresentation = PreparedAnswer;

type Variant = ContentCoding | 'identity';

// The header lists and objects of a prepared answer, counted with its bytes (a memo bucket's measure).
const PREPARED_OVERHEAD = 1024;

/**
 * The answers of `source` in `frame`. `grown` is told when a coded body has been added, so that whoever
 * keeps it can count the new bytes.
 */
export function prepareAnswer(source: AnswerSource, frame: ResponseFrame, grown?: () => void): PreparedAnswer {
  const start = answerHeaders(source.lastModified, frame);
  const contentType = frame.contentType ?? source.contentType;
  const { etag, encoded } = source;
  const compressible = encoded !== undefined && source.length >= MIN_COMPRESS_BYTES;
  const ok: Partial<Record<Variant, PreparedResponse>> = {};
  const notModified: Partial<Record<Variant, PreparedResponse>> = {};
  const pending: Partial<Record<ContentCoding, Promise<PreparedResponse>>> = {};
  const own = (source.ownBytes ?? source.length) + PREPARED_OVERHEAD;
  let coded = 0;
  return {
    etag,
    get bytes() {
      return own + coded;
    },
    answer(request) {
      const coding = compressible ? negotiateCoding(request.headers['accept-encoding']) : null;
      const variant: Variant = coding ?? 'identity';
      if (isNotModified(request.headers, source))
        return (notModified[variant] ??= notModifiedResponse(start, coding ? codedEtag(etag, coding) : etag));
      const done = ok[variant];
      if (done) return done;
      if (!coding) return (ok.identity = { status: 200, headers: okHeaders(start, contentType, etag, source.length), body: source.body });
      return (pending[coding] ??= encoded!(coding).then(
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

/** A representation as an answer's source; `perRequest`: compressed only up to PER_REQUEST_COMPRESS_MAX. */
export function sourceOf(rep: Representation, perRequest = false): AnswerSource {
  return {
    body: rep.body,
    length: rep.body.length,
    contentType: rep.contentType,
    etag: rep.etag,
    lastModified: rep.lastModified,
    ...(rep.weakDate ? { weakDate: true } : {}),
    ...(!perRequest || rep.body.length <= PER_REQUEST_COMPRESS_MAX ? { encoded: rep.encoded } : {}),
  };
}

/** The answers of a representation (a document, a page, a kept answer) in `frame`. */
export function prepareRepresentation(rep: Representation, frame: ResponseFrame, grown?: () => void): PreparedAnswer {
  return prepareAnswer(sourceOf(rep), frame, grown);
}
