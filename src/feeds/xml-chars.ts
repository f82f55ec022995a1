/**
 * Characters outside the XML 1.0 `Char` production (XML 1.0 §2.2): C0 controls other than tab, LF and CR,
 * lone surrogates, and U+FFFE/U+FFFF. One of them anywhere makes a document not well-formed, and not even
 * a character reference may name them, so they are removed before any text reaches a feed. The same
 * code points are also "noncharacters" or control characters that HTML forbids (HTML §13.2.5), so the
 * HTML content of both feeds uses this too. Valid astral characters (emoji) are surrogate pairs and stay.
 */
// With the `u` flag a valid surrogate pair is one code point, so the surrogate range matches lone halves only.
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/gu;

/** `s` without the characters XML 1.0 cannot carry; every valid character, emoji included, is kept. */
export function stripInvalidXmlChars(s: string): string {
  return s.replace(INVALID_XML_CHARS, '');
}
