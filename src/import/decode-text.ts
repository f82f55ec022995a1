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

/** Byte offsets where an invalid UTF-8 sequence starts (at most `limit`). */
function invalidOffsets(bytes: Uint8Array, limit: number): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length && out.length < limit) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    let ok = need >= 0;
    for (let k = 1; ok && k <= need; k++) {
      const c = bytes[i + k];
      ok = c !== undefined && c >= 0x80 && c <= 0xbf;
    }
    // Overlong forms and surrogates (RFC 3629 §4).
    if (ok && need === 2) {
      const c = bytes[i + 1]!;
      ok = !(b === 0xe0 && c < 0xa0) && !(b === 0xed && c > 0x9f);
    }
    if (ok && need === 3) {
      const c = bytes[i + 1]!;
      ok = !(b === 0xf0 && c < 0x90) && !(b === 0xf4 && c > 0x8f);
    }
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
