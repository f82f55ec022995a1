/**
 * Conditional GET (RFC 9110 §13). If-None-Match uses the weak comparison (§8.8.3.2), accepts lists
 * and `*`, and wins over If-Modified-Since (§13.2.2). A coded variant's tag ("abc-gzip") names the
 * same content as the identity tag ("abc"), so either form matches.
 */
const CODING_SUFFIX = /-(gzip|br)$/;

/** The opaque part of an entity-tag, without a coding suffix; null for anything that is not one. */
function opaque(tag: string): string | null {
  const m = /^(?:W\/)?"([^"]*)"$/.exec(tag.trim());
  return m ? m[1]!.replace(CODING_SUFFIX, '') : null;
}

/** Splits an If-None-Match list on commas outside quotes. */
function splitTags(header: string): string[] {
  return header.match(/(?:W\/)?"[^"]*"|[^,\s]+/g) ?? [];
}

export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  // The common revalidation: the client sends back exactly the tag it got.
  if (ifNoneMatch === etag) return true;
  if (ifNoneMatch.trim() === '*') return true;
  const current = opaque(etag);
  return current !== null && splitTags(ifNoneMatch).some((t) => t === '*' || opaque(t) === current);
}

export interface Validators {
  etag: string;
  /** Milliseconds, whole seconds. */
  lastModified: number;
  /** Two contents shared this date: If-Modified-Since cannot prove the client's copy is current. */
  weakDate?: boolean;
}

/** True when a GET/HEAD with these headers should be answered 304 Not Modified. */
export function isNotModified(
  headers: { 'if-none-match'?: string | string[] | undefined; 'if-modified-since'?: string | undefined },
  v: Validators,
): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) {
    const value = Array.isArray(inm) ? inm.join(',') : inm;
    return etagMatches(value, v.etag);
  }
  const ims = headers['if-modified-since'];
  if (ims && !v.weakDate) {
    const since = Date.parse(ims);
    // An invalid date is ignored (RFC 9110 §13.1.3).
    if (!Number.isNaN(since)) return v.lastModified <= since;
  }
  return false;
}
