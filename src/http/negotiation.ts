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

/**
 * The coding to use for this request (RFC 9110 §12.5.3): br, then gzip, honouring q=0 and `*`. Runs on
 * every answer, 304s included, so it reads the list in place instead of building one.
 */
export function negotiateCoding(acceptEncoding: string | undefined): ContentCoding | null {
  if (!acceptEncoding) return null;
  let br = -1;
  let gzip = -1;
  let any = -1;
  for (const part of acceptEncoding.split(',')) {
    const semi = part.indexOf(';');
    const name = (semi === -1 ? part : part.slice(0, semi)).trim().toLowerCase();
    if (name !== 'br' && name !== 'gzip' && name !== '*') continue;
    const q = semi === -1 ? 1 : weight(part.slice(semi + 1));
    if (name === 'br') br = q;
    else if (name === 'gzip') gzip = q;
    else any = q;
  }
  if (br === -1) br = Math.max(any, 0);
  if (gzip === -1) gzip = Math.max(any, 0);
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return null;
}

/** The q of a coding's parameters (`;q=0.5`): 1 without one, 0 when malformed. */
function weight(params: string): number {
  for (const param of params.split(';')) {
    const p = param.trim().toLowerCase();
    if (p.startsWith('q=')) {
      const q = Number(p.slice(2));
      return Number.isFinite(q) ? q : 0;
    }
  }
  return 1;
}

/**
 * The JSON Feed is application/feed+json, or application/json for a client whose Accept admits
 * application/json but not application/feed+json (contract §4).
 */
export function negotiateFeedType(accept: string | undefined): string {
  const ranges = parseWeightedList(accept);
  const admits = (type: string) => ranges.some((r) => r.value === type && r.q !== 0);
  if (!admits('application/feed+json') && admits('application/json')) return JSON_MEDIA_TYPE;
  return 'application/feed+json';
}
