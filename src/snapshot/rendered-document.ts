import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type ContentCoding = 'gzip' | 'br';

export interface EncodedVariant {
  body: Buffer;
  etag: string;
}

/**
 * Response bytes with their validators, computed once (per snapshot for whole documents). Compressed
 * variants are made on first use and kept, so the same bytes are never compressed twice.
 */
export interface Representation {
  body: Buffer;
  contentType: string;
  /** A strong entity tag derived from the bytes alone: equal on every replica and after restarts. */
  etag: string;
  /** SHA-256 of the bytes, hex: the WebSub topic hash (the same digest the ETag is cut from). */
  contentHash: string;
  /** Milliseconds, truncated to whole seconds as HTTP dates are (RFC 9110 §5.6.7). */
  lastModified: number;
  /**
   * True when another content of this resource was published within the same second: the date cannot
   * tell the two apart, so If-Modified-Since alone never answers 304 (RFC 9110 §8.8.2.2, a weak date).
   */
  weakDate?: boolean;
  encoded(coding: ContentCoding): Promise<EncodedVariant>;
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Strong ETag of some bytes' digest (RFC 9110 §8.8.3): a content hash, never a timestamp or a counter. */
function etagOfDigest(sha256: Buffer): string {
  return `"${sha256.toString('base64url').slice(0, 32)}"`;
}

/**
 * A coded representation is a different representation, so it gets its own strong tag: the identity
 * tag with a suffix (RFC 9110 §8.8.3). Conditional requests accept either form.
 */
export function codedEtag(etag: string, coding: ContentCoding): string {
  return `${etag.slice(0, -1)}-${coding}"`;
}

export async function compress(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  return coding === 'gzip'
    ? gzip(body, { level: 6 })
    : brotli(body, {
        // Quality 11 takes seconds on a multi-megabyte dataset; 5 keeps most of the gain.
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
}

/** A whole document of a snapshot. */
export type RenderedDocument = Representation;

export function createRepresentation(body: Buffer | string, contentType: string, lastModifiedMs: number, weakDate = false): Representation {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return representationOf(bytes, createHash('sha256').update(bytes).digest(), contentType, lastModifiedMs, weakDate);
}

/**
 * A representation whose strong ETag the caller derived from what determines the bytes, without
 * hashing them (e.g. a search answer's tag comes from its reviews' digests and its envelope). The
 * caller must give different tags to different bytes. Its contentHash is computed only if asked for.
 */
export function createRepresentationWithEtag(
  body: Buffer | string,
  contentType: string,
  etag: string,
  lastModifiedMs: number,
  weakDate = false,
): Representation {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  let hash: string | undefined;
  return representation(
    bytes,
    contentType,
    etag,
    () => (hash ??= createHash('sha256').update(bytes).digest('hex')),
    lastModifiedMs,
    weakDate,
  );
}

/** The same bytes (and compressed variants) with other date validators. */
export function withDate(r: Representation, lastModifiedMs: number, weakDate: boolean): Representation {
  const { weakDate: _old, ...rest } = r;
  return { ...rest, lastModified: Math.floor(lastModifiedMs / 1000) * 1000, ...(weakDate ? { weakDate } : {}) };
}

function representationOf(bytes: Buffer, digest: Buffer, contentType: string, lastModifiedMs: number, weakDate: boolean): Representation {
  const hex = digest.toString('hex');
  return representation(bytes, contentType, etagOfDigest(digest), () => hex, lastModifiedMs, weakDate);
}

function representation(
  bytes: Buffer,
  contentType: string,
  etag: string,
  contentHash: () => string,
  lastModifiedMs: number,
  weakDate: boolean,
): Representation {
  const variants = new Map<ContentCoding, Promise<EncodedVariant>>();
  return {
    body: bytes,
    contentType,
    etag,
    get contentHash() {
      return contentHash();
    },
    lastModified: Math.floor(lastModifiedMs / 1000) * 1000,
    ...(weakDate ? { weakDate } : {}),
    encoded(coding) {
      let v = variants.get(coding);
      if (!v) {
        v = compress(bytes, coding).then((b) => ({ body: b, etag: codedEtag(etag, coding) }));
        variants.set(coding, v);
      }
      return v;
    },
  };
}
