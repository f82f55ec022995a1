import type { TimeSlicer } from './time-slice.js';

/**
 * Every published review's JSON, UTF-8, held once (to save memory): inside the `/reviews.json`
 * document, between its head and tail, with each review's offsets. Answers are assembled by copying
 * slices of it (no string joined and encoded per request), and a rebuild copies the unchanged reviews'
 * bytes from the previous document instead of keeping a string of each.
 */
export interface ReviewBytes {
  /** The whole `/reviews.json` document the reviews live in. */
  readonly document: Buffer;
  readonly count: number;
  /** Review `i`'s JSON as bytes: a view into `document`, not a copy. */
  bytes(i: number): Buffer;
  /** Review `i`'s JSON as a string, decoded on each call (for the few callers that parse it). */
  json(i: number): string;
  /** Reviews [from, to) joined by commas: a view into `document`. */
  range(from: number, to: number): Buffer;
  /**
   * `prefix + reviews at positions, joined by commas + suffix` as one buffer, copied straight from
   * `document` (no view object per review: a search answer's allocations showed in its GC time), into
   * `allocate(length)` (a new buffer by default; a reused one for an answer sent once).
   */
  join(prefix: string, positions: readonly number[], suffix: string, allocate?: (length: number) => Buffer): Buffer;
}

/** A review's JSON for a new document: a string (new or changed) or bytes (copied from the last one). */
export type ReviewSource = string | Buffer;

function reviewBytes(document: Buffer, starts: Uint32Array, ends: Uint32Array): ReviewBytes {
  const count = starts.length;
  return {
    document,
    count,
    bytes: (i) => document.subarray(starts[i], ends[i]),
    json: (i) => document.toString('utf8', starts[i], ends[i]),
    range: (from, to) => (to <= from ? document.subarray(0, 0) : document.subarray(starts[from], ends[to - 1])),
    join(prefix, positions, suffix, allocate = Buffer.allocUnsafe) {
      let total = Buffer.byteLength(prefix) + Buffer.byteLength(suffix) + Math.max(0, positions.length - 1);
      for (const p of positions) total += ends[p]! - starts[p]!;
      const out = allocate(total);
      let at = out.write(prefix, 0, 'utf8');
      for (let i = 0; i < positions.length; i++) {
        if (i > 0) out[at++] = 0x2c; // ','
        const p = positions[i]!;
        // Uint8Array#set from a plain view: half the time of Buffer#copy for a slice.
        const length = ends[p]! - starts[p]!;
        out.set(new Uint8Array(document.buffer, document.byteOffset + starts[p]!, length), at);
        at += length;
      }
      out.write(suffix, at, 'utf8');
      return out;
    },
  };
}

/**
 * Encoding and copying calls picked by measurement (Node 20, the 100k dataset's 98,333 reviews, 70 MB,
 * into memory already touched): `Buffer#write(string, offset)` encodes SQLite's and JSON.stringify's
 * strings in 80 ms where `TextEncoder#encodeInto` into a new `subarray` view per review took 440 ms;
 * `Uint8Array#set` copies whole reviews in 100 ms where `Buffer#copy` took 400 ms (its argument checks).
 * Into a fresh document most of the time is the kernel's page faults (about 3 ms per MB on the
 * benchmark VM), which no call avoids. Same bytes: both encoders write a lone surrogate as U+FFFD,
 * which JSON.stringify never leaves unescaped.
 */
/**
 * `head + sources.join(',') + tail` as one buffer sized up front, with each source's offsets, yielding
 * to the event loop between slices when a slicer is given, so requests are not stalled. Encoding the joined string
 * instead cost ten times as much at 50k reviews (a flattened rope, widened to two-byte as soon as one
 * review has a non-ASCII character), all of it in one piece.
 */
export async function writeReviewBytes(
  sources: readonly ReviewSource[],
  head: string,
  tail: string,
  slicer?: TimeSlicer,
): Promise<ReviewBytes> {
  const n = sources.length;
  const starts = new Uint32Array(n);
  const ends = new Uint32Array(n);
  let total = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, n - 1);
  for (let i = 0; i < n; i++) {
    const s = sources[i]!;
    // Lengths only for now; ends[] is overwritten with the real offsets below.
    total += ends[i] = typeof s === 'string' ? Buffer.byteLength(s, 'utf8') : s.length;
    if ((i & 1023) === 1023 && slicer?.due()) await slicer.pause();
  }
  const document = Buffer.allocUnsafe(total);
  let at = document.write(head, 0, 'utf8');
  for (let i = 0; i < n; i++) {
    if (i > 0) document[at++] = 0x2c; // ','
    const s = sources[i]!;
    starts[i] = at;
    if (typeof s === 'string') at += document.write(s, at);
    else {
      document.set(s, at);
      at += s.length;
    }
    ends[i] = at;
    if ((i & 255) === 255 && slicer?.due()) await slicer.pause();
  }
  document.write(tail, at, 'utf8');
  return reviewBytes(document, starts, ends);
}

/**
 * `prefix + parts.join(',') + suffix` as one buffer: an answer assembled from reviews' bytes.
 * @internal exported for tests as well
 */
export function joinAnswer(prefix: string, parts: readonly Buffer[], suffix: string): Buffer {
  let total = Buffer.byteLength(prefix) + Buffer.byteLength(suffix) + Math.max(0, parts.length - 1);
  for (const p of parts) total += p.length;
  const out = Buffer.allocUnsafe(total);
  let at = out.write(prefix, 0, 'utf8');
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) out[at++] = 0x2c;
    out.set(parts[i]!, at);
    at += parts[i]!.length;
  }
  out.write(suffix, at, 'utf8');
  return out;
}
