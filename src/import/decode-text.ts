/**
 * Import files are UTF-8 (RFC 8259 §8.1 for JSON). A byte sequence that is not UTF-8 is an error
 * naming its line and, for JSON, the field it sits in, instead of a silent U+FFFD in published text.
 * A byte order mark at the start is accepted and dropped (Excel and Notepad write one).
 */
export interface DecodeProblem {
  line: number;
  field?: string;
  message: string;
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** How many continuation bytes a lead byte announces; -1 for a byte no sequence starts with (RFC 3629 §4). */
function continuationCount(b: number): number {
  if (b < 0x80) return 0;
  if (b >= 0xc2 && b <= 0xdf) return 1;
  if (b >= 0xe0 && b <= 0xef) return 2;
  if (b >= 0xf0 && b <= 0xf4) return 3;
  return -1;
}

/** Whether the sequence at `i`, of a lead byte and `need` continuation bytes, is well formed. */
function wellFormed(bytes: Uint8Array, i: number, need: number): boolean {
  if (need < 0) return false;
  for (let k = 1; k <= need; k++) {
    const c = bytes[i + k];
    if (c === undefined || c < 0x80 || c > 0xbf) return false;
  }
  // Overlong forms and surrogates (RFC 3629 §4).
  const b = bytes[i]!;
  if (need === 2) return !(b === 0xe0 && bytes[i + 1]! < 0xa0) && !(b === 0xed && bytes[i + 1]! > 0x9f);
  if (need === 3) return !(b === 0xf0 && bytes[i + 1]! < 0x90) && !(b === 0xf4 && bytes[i + 1]! > 0x8f);
  return true;
}

/** Byte offsets where an invalid UTF-8 sequence starts (at most `limit`). */
function invalidOffsets(bytes: Uint8Array, limit: number): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length && out.length < limit) {
    const need = continuationCount(bytes[i]!);
    const ok = wellFormed(bytes, i, need);
    if (!ok) out.push(i);
    i += ok ? need + 1 : 1;
  }
  return out;
}

/** The last JSON key opened before `column` on this line: the field a bad byte sits in. */
function fieldBefore(lineText: string): string | undefined {
  const keys = [...lineText.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)];
  return keys.at(-1)?.[1];
}

export function decodeUtf8(bytes: Uint8Array, kind: 'json' | 'csv'): { text: string; problems: DecodeProblem[] } {
  try {
    return { text: strict.decode(bytes), problems: [] };
  } catch {
    const problems: DecodeProblem[] = [];
    for (const offset of invalidOffsets(bytes, 20)) {
      const before = bytes.subarray(0, offset);
      let line = 1;
      let lineStart = 0;
      for (let i = 0; i < before.length; i++)
        if (before[i] === 0x0a) {
          line++;
          lineStart = i + 1;
        }
      const lineText = lenient.decode(bytes.subarray(lineStart, offset));
      const field = kind === 'json' ? fieldBefore(lineText) : undefined;
      const hex = bytes[offset]!.toString(16).padStart(2, '0');
      problems.push({
        line,
        ...(field !== undefined ? { field } : {}),
        message: `invalid UTF-8 (byte 0x${hex})${field !== undefined ? ` in field "${field}"` : ''}: save the file as UTF-8`,
      });
    }
    return { text: lenient.decode(bytes), problems };
  }
}
