import type { Business } from './business.js';
import type { MentionRef, MentionTags, Mentions } from './review.js';

type Kind = keyof Mentions;
const KINDS: readonly Kind[] = ['technicians', 'services', 'service_areas'];

// Contract §2: a name or alias matches as a whole word or phrase, case-insensitively, with Unicode
// letters and digits (and `_`) as word characters, so "José" matches and "Joséphine" does not.
const WORD_CHAR = /[\p{L}\p{N}_\p{M}]/u;

interface Phrase {
  needle: string;
  kind: Kind;
  ref: MentionRef;
}

function isBoundary(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return true;
  const code = text.codePointAt(index) ?? 0;
  // Look at the whole code point, also when `index` points at the low half of a surrogate pair.
  const ch =
    code >= 0xdc00 && code <= 0xdfff && index > 0 ? String.fromCodePoint(text.codePointAt(index - 1) ?? 0) : String.fromCodePoint(code);
  return !WORD_CHAR.test(ch);
}

// ASCII is most text: its word characters are [A-Za-z0-9_], as WORD_CHAR says, without a regex test.
function isBoundaryFast(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return true;
  const c = text.charCodeAt(index);
  if (c >= 128) return isBoundary(text, index);
  return !((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || (c >= 65 && c <= 90));
}

export interface MentionMatcher {
  /** Catalog entries named in the title or text, merged with the ids an import record tagged. */
  resolve(title: string | null, text: string, tags: MentionTags): Mentions;
}

/**
 * Builds the matcher once per catalog. Each lower-cased text is walked once: at every position that
 * follows a boundary, only the phrases starting with that character are compared, with an explicit
 * boundary check after them. One regular expression per entry, or one `indexOf` pass per phrase, costs
 * an order of magnitude more at 100k reviews.
 */
export function createMentionMatcher(business: Business): MentionMatcher {
  const catalog: Record<Kind, { id: string; name: string; aliases: string[] }[]> = {
    technicians: business.technicians,
    services: business.services,
    service_areas: business.service_areas,
  };
  const phrases: Phrase[] = [];
  const byId: Record<Kind, Map<string, MentionRef>> = { technicians: new Map(), services: new Map(), service_areas: new Map() };
  for (const kind of KINDS) {
    for (const entry of catalog[kind]) {
      const ref = { id: entry.id, name: entry.name };
      byId[kind].set(entry.id, ref);
      const needles = new Set([entry.name, ...entry.aliases].map((s) => s.trim().toLowerCase()).filter((s) => s.length > 0));
      for (const needle of needles) phrases.push({ needle, kind, ref });
    }
  }
  // Phrases by their first UTF-16 code unit: an array for ASCII, a map for the rest.
  const asciiFirst: (Phrase[] | undefined)[] = new Array<Phrase[] | undefined>(128);
  const otherFirst = new Map<number, Phrase[]>();
  for (const p of phrases) {
    const c = p.needle.charCodeAt(0);
    const list = c < 128 ? (asciiFirst[c] ??= []) : otherFirst.get(c);
    if (list) list.push(p);
    else otherFirst.set(c, [p]);
  }

  return {
    resolve(title, text, tags) {
      const found: Record<Kind, Set<string>> = { technicians: new Set(), services: new Set(), service_areas: new Set() };
      const haystacks = [title, text].filter((s): s is string => !!s).map((s) => s.toLowerCase());
      // A match must not span title and text: each is walked on its own.
      for (const h of haystacks) {
        for (let at = 0; at < h.length; at++) {
          const c = h.charCodeAt(at);
          const bucket = c < 128 ? asciiFirst[c] : otherFirst.get(c);
          if (bucket === undefined || !isBoundaryFast(h, at - 1)) continue;
          for (const p of bucket) {
            if (found[p.kind].has(p.ref.id)) continue;
            if (h.startsWith(p.needle, at) && isBoundaryFast(h, at + p.needle.length)) found[p.kind].add(p.ref.id);
          }
        }
      }
      for (const kind of KINDS) for (const id of tags[kind]) if (byId[kind].has(id)) found[kind].add(id);
      // Catalog order, so the same data always gives the same bytes.
      const out = {} as Mentions;
      for (const kind of KINDS) out[kind] = catalog[kind].filter((e) => found[kind].has(e.id)).map((e) => byId[kind].get(e.id)!);
      return out;
    },
  };
}
