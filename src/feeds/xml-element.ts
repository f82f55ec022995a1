/**
 * A small XML element tree and its serialization, for the Atom feed (issue 15, start-up: xmlbuilder2
 * and its DOM were 650 kB of the server's code and most of the feed's rendering time). It writes the
 * bytes xmlbuilder2 4 wrote with `prettyPrint: true`, which the golden file and a property test
 * against xmlbuilder2 (src/feeds/atom.test.ts) hold it to:
 * - two spaces of indentation per level, one element per line, LF line ends;
 * - an element with text only is written on one line, its text unindented (even across lines);
 * - an element without children or text, or whose text is empty, is written `<name a="v"/>`;
 * - text escapes `&`, `<` and `>`; attribute values also `"` (DOM Parsing, "serializing an attribute
 *   value"). Callers strip the characters XML 1.0 cannot carry first (xml-chars.ts).
 */
export interface XmlElement {
  readonly name: string;
  readonly attributes: readonly (readonly [string, string])[];
  text: string | null;
  readonly children: XmlElement[];
}

export function xmlElement(name: string, attributes: Record<string, string> = {}, text: string | null = null): XmlElement {
  return { name, attributes: Object.entries(attributes), text, children: [] };
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

function write(e: XmlElement, level: number, out: string[]): void {
  const indent = '  '.repeat(level);
  let open = `${indent}<${e.name}`;
  for (const [k, v] of e.attributes) open += ` ${k}="${escapeAttribute(v)}"`;
  if (e.children.length > 0) {
    out.push(`${open}>\n`);
    for (const c of e.children) write(c, level + 1, out);
    out.push(`${indent}</${e.name}>\n`);
  } else if (e.text) out.push(`${open}>${escapeText(e.text)}</${e.name}>\n`);
  else out.push(`${open}/>\n`);
}

/** The document: the XML declaration, then `root`; no line end after the root's end tag. */
export function serializeXml(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, 0, out);
  return out.join('').slice(0, -1);
}
