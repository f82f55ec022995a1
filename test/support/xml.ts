import { XMLValidator } from 'fast-xml-parser';
import { SaxesParser, type SaxesTagNS } from 'saxes';

/** Test helpers that read feeds the way a strict consumer would. Used by the feed tests only. */

const ATOM_NS = 'http://www.w3.org/2005/Atom';

/** XML 1.0 §2.2 `Char`. */
export function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Every reason `xml` is not a well-formed XML 1.0 document; empty when it is. */
export function wellFormedProblems(xml: string): string[] {
  const problems: string[] = [];
  const v = XMLValidator.validate(xml);
  if (v !== true) problems.push(`XMLValidator: ${v.err.msg} at ${v.err.line}:${v.err.col}`);
  const saxes = new SaxesParser({ xmlns: true });
  saxes.on('error', (e) => problems.push(`saxes: ${e.message}`));
  try {
    saxes.write(xml).close();
  } catch (e) {
    problems.push(`saxes: ${(e as Error).message}`);
  }
  // Iterating a string yields code points, so a lone surrogate shows up as itself.
  let offset = 0;
  for (const ch of xml) {
    const cp = ch.codePointAt(0) ?? 0;
    if (!isXmlChar(cp)) problems.push(`illegal character U+${cp.toString(16).padStart(4, '0')} at ${offset}`);
    offset += ch.length;
  }
  for (const m of xml.matchAll(/&#(x[0-9a-fA-F]+|[0-9]+);/g)) {
    const ref = m[1] ?? '';
    const cp = ref.startsWith('x') ? parseInt(ref.slice(1), 16) : parseInt(ref, 10);
    if (!isXmlChar(cp)) problems.push(`reference to an illegal character: ${m[0]}`);
  }
  return problems;
}

export interface AtomText {
  type: string;
  text: string;
}

export interface AtomLink {
  rel: string;
  href: string | undefined;
  type: string | undefined;
}

export interface AtomNode {
  id?: string;
  updated?: string;
  published?: string;
  title?: AtomText;
  content?: AtomText;
  subtitle?: AtomText;
  links: AtomLink[];
  authorNames: string[];
  categories: string[];
}

/** A text element being read: whose it is, which of its values, and the depth it closes at. */
interface Capture {
  owner: AtomNode;
  key: string;
  depth: number;
  type: string;
  text: string;
}

/**
 * An Atom element opened at `depth` (its parent's name given): a text to capture, a link or category
 * recorded on its owner at once, or nothing the helpers read.
 */
function openAtomElement(t: SaxesTagNS, depth: number, parent: string | undefined, feed: AtomNode, entry: AtomNode | null): Capture | null {
  const attr = (n: string): string | undefined => t.attributes[n]?.value;
  // atom:name inside atom:author, itself a child of the feed (depth 3) or of an entry (depth 4).
  const authorOwner = t.local !== 'name' || parent !== 'author' ? null : depth === 3 ? feed : depth === 4 ? entry : null;
  if (authorOwner) return { owner: authorOwner, key: 'authorName', depth, type: 'text', text: '' };
  const owner = entry && depth === 3 ? entry : !entry && depth === 2 ? feed : null;
  if (!owner) return null;
  if (t.local === 'link') owner.links.push({ rel: attr('rel') ?? 'alternate', href: attr('href'), type: attr('type') });
  else if (t.local === 'category') owner.categories.push(attr('term') ?? '');
  else if (['id', 'title', 'updated', 'published', 'content', 'subtitle'].includes(t.local))
    return { owner, key: t.local, depth, type: attr('type') ?? 'text', text: '' };
  return null;
}

/** Atom as a conformant namespace-aware parser (saxes) sees it: every reference decoded. */
export function parseAtom(xml: string): { feed: AtomNode; entries: AtomNode[] } {
  const feed: AtomNode = { links: [], authorNames: [], categories: [] };
  const entries: AtomNode[] = [];
  const stack: string[] = [];
  let entry: AtomNode | null = null;
  let capture: Capture | null = null;
  const p = new SaxesParser({ xmlns: true });
  p.on('error', (e) => {
    throw e;
  });
  p.on('opentag', (t) => {
    stack.push(t.local);
    const depth = stack.length;
    if (capture || t.uri !== ATOM_NS) return;
    if (t.local === 'entry' && depth === 2) {
      entry = { links: [], authorNames: [], categories: [] };
      return;
    }
    capture = openAtomElement(t, depth, stack[depth - 2], feed, entry);
  });
  p.on('text', (x) => {
    if (capture) capture.text += x;
  });
  p.on('cdata', (x) => {
    if (capture) capture.text += x;
  });
  p.on('closetag', (t) => {
    const depth = stack.length;
    stack.pop();
    if (capture && depth === capture.depth) {
      const { owner, key, type, text } = capture;
      if (key === 'authorName') owner.authorNames.push(text);
      else if (key === 'id' || key === 'updated' || key === 'published') owner[key] = text;
      else if (key === 'title' || key === 'content' || key === 'subtitle') owner[key] = { type, text };
      capture = null;
    }
    if (entry && depth === 2 && t.local === 'entry') {
      entries.push(entry);
      entry = null;
    }
  });
  p.write(xml).close();
  return { feed, entries };
}

/**
 * The text a reader gets from our HTML: the first paragraph (the review itself, not the owner's reply),
 * `<br>` as a line break, tags dropped, references decoded.
 */
export function htmlReviewText(html: string): string {
  const first = /^<p>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
  return decodeHtml(first.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, ''));
}

export function decodeHtml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** What HTML keeps of a text: XML-invalid characters gone, CRLF and CR each one LF (HTML §13.2.3.5). */
export function asHtmlSeesIt(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/gu, '').replace(/\r\n?/g, '\n');
}
