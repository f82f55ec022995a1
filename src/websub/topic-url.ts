import type { ServiceUrls } from '../domain/urls.js';

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Percent-encodings of unreserved characters decoded, the others in upper case (RFC 3986 §6.2.2). */
function normalizePercentEncoding(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
  });
}

/**
 * A URL in a form where equivalent spellings compare equal (RFC 3986 §6.2.2-6.2.3): scheme and host in
 * lower case and default ports dropped (the WHATWG parser does both), dot segments resolved, unreserved
 * percent-encodings decoded; the fragment is dropped, as it never reaches the server. Null when the
 * text is not an absolute URL, or carries credentials.
 */
export function normalizeUrl(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if (u.username || u.password) return null;
  return `${u.protocol}//${u.host}${normalizePercentEncoding(u.pathname)}${normalizePercentEncoding(u.search)}`;
}

/** The document each topic publishes, by the name the snapshot keeps it under. */
export interface Topic {
  url: string;
  document: string;
}

export interface TopicSet {
  all: readonly Topic[];
  /** The canonical topic for any equivalent spelling of its URL, or null (contract §6). */
  resolve(raw: string): Topic | null;
  byUrl(url: string): Topic | null;
}

/** The three WebSub topics (spec §6). */
export function createTopicSet(urls: ServiceUrls): TopicSet {
  const all: Topic[] = [
    { url: urls.feedXml, document: 'feed.xml' },
    { url: urls.feedJson, document: 'feed.json' },
    { url: urls.reviewsJson, document: 'reviews.json' },
  ];
  const byNormalized = new Map(all.map((t) => [normalizeUrl(t.url) ?? t.url, t]));
  const byUrl = new Map(all.map((t) => [t.url, t]));
  return {
    all,
    resolve(raw) {
      const n = normalizeUrl(raw);
      return n === null ? null : (byNormalized.get(n) ?? null);
    },
    byUrl: (url) => byUrl.get(url) ?? null,
  };
}
