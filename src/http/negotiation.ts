import type { FastifyRequest } from 'fastify';
import { JSON_MEDIA_TYPE } from '../domain/media-types.js';
import type { ContentCoding } from '../snapshot/rendered-document.js';

export interface Weighted {
  /** The media range or coding, lower-cased. */
  value: string;
  /** The `q` weight (RFC 9110 §12.4.2): 1 when absent, NaN when malformed. */
  q: number;
}

/** The one parser of Accept and Accept-Encoding lists: `value;param;q=0.5, ...` in header order. */
export function parseWeightedList(header: string | undefined): Weighted[] {
  if (!header) return [];
  const out: Weighted[] = [];
  for (const part of header.split(',')) {
    const [value, ...params] = part.trim().toLowerCase().split(';');
    if (!value?.trim()) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    out.push({ value: value.trim(), q: qp ? Number(qp.slice(2)) : 1 });
  }
  return out;
}

// The last Accept-Encoding and its coding (no header: identity). A client sends the same header on every
// request, and parsing it made a Map and a list per answer, also per fast 304 (issue 15).
let last: { header: string | undefined; coding: ContentCoding | null } = { header: undefined, coding: null };

/** The coding to use for this request (RFC 9110 §12.5.3): br, then gzip, honouring q=0. */
export function negotiateCoding(acceptEncoding: string | undefined): ContentCoding | null {
  if (acceptEncoding !== last.header) last = { header: acceptEncoding, coding: parseCoding(acceptEncoding) };
  return last.coding;
}

function parseCoding(acceptEncoding: string | undefined): ContentCoding | null {
  const q = new Map<string, number>();
  for (const { value, q: weight } of parseWeightedList(acceptEncoding)) q.set(value, Number.isFinite(weight) ? weight : 0);
  const weight = (c: string) => q.get(c) ?? (q.has('*') ? q.get('*')! : 0);
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/**
 * The JSON Feed is application/feed+json, or application/json for a client whose Accept admits
 * application/json but not application/feed+json (contract §4).
 */
export function negotiateFeedType(request: FastifyRequest): string {
  const ranges = parseWeightedList(request.headers.accept);
  const admits = (type: string) => ranges.some((r) => r.value === type && r.q !== 0);
  if (!admits('application/feed+json') && admits('application/json')) return JSON_MEDIA_TYPE;
  return 'application/feed+json';
}
