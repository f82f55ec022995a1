import nlp from 'compromise';
import type { Token } from '../nlp/wink.js';

export interface StaffName {
  name: string;
  /** Character range of the evidence (the sentence naming the person) in the review text. */
  start: number;
  end: number;
}

const ROLES = new Set(
  'tech techs technician technicians plumber electrician installer installers serviceman repairman handyman apprentice helper foreman estimator dispatcher receptionist rep representative advisor owner manager crew lead supervisor contractor specialist'.split(
    ' ',
  ),
);
const NOT_NAMES = new Set(
  'i he she they we you it the a an and or but was is were came did who that this there here today then mr mrs ms dr sir ma am office company team hvac ac guy guys man woman lady girl kid crew people work job'.split(
    ' ',
  ),
);

function isNameToken(t: Token | undefined): t is Token {
  if (!t) return false;
  return /^\p{Lu}[\p{L}'-]+$/u.test(t.value) && !NOT_NAMES.has(t.norm) && (t.pos === 'PROPN' || t.pos === 'NOUN' || t.pos === 'ADJ');
}

/** A name and an optional surname initial or surname right after it ("Brandon", "Brandon K."). */
function readName(tokens: readonly Token[], at: number, to: number): string | undefined {
  const first = tokens[at];
  if (!isNameToken(first)) return undefined;
  const second = tokens[at + 1];
  if (at + 1 < to && isNameToken(second) && second.pos === 'PROPN') return `${first.value} ${second.value}`;
  return first.value;
}

/** "our tech Brandon", "technician named Brandon": the name after a role word, and whether a lower-case word there may be one. */
function afterRole(tokens: readonly Token[], i: number, to: number): { name?: string; lowerCase: boolean } {
  let j = i + 1;
  if (tokens[j]?.norm === 'named' || tokens[j]?.norm === 'called' || tokens[j]?.norm === ',') j++;
  const name = j < to ? readName(tokens, j, to) : undefined;
  if (name) return { name, lowerCase: false };
  return { lowerCase: j < to && mayBeLowerCaseName(tokens, j) };
}

/** "our tech brandon was great": a lower-case word right after the role, then a verb. */
function mayBeLowerCaseName(tokens: readonly Token[], j: number): boolean {
  const next = tokens[j];
  if (!next || !/^\p{Ll}/u.test(next.value) || NOT_NAMES.has(next.norm) || ROLES.has(next.norm)) return false;
  const then = tokens[j + 1];
  return next.pos === 'PROPN' || (next.pos === 'NOUN' && (then?.pos === 'AUX' || then?.pos === 'VERB' || then?.norm === ','));
}

/** "Brandon, the plumber": a name, a comma, an article and a role. */
function nameThenRole(tokens: readonly Token[], i: number): boolean {
  return (
    isNameToken(tokens[i]) &&
    tokens[i + 1]?.norm === ',' &&
    ['the', 'our', 'their'].includes(tokens[i + 2]?.norm ?? '') &&
    ROLES.has(tokens[i + 3]?.norm ?? '')
  );
}

/**
 * "Maria is the best plumber we've ever had", "Dave was a great tech": Name is|was (a|an|the|our)
 * (adjectives) role. Up to three words between the article and the role.
 */
function nameIsRole(tokens: readonly Token[], i: number, from: number, to: number): boolean {
  if (!isNameToken(tokens[i]) || (i > from && tokens[i - 1]?.norm === 'the') || !['is', 'was', "'s"].includes(tokens[i + 1]?.norm ?? ''))
    return false;
  let j = i + 2;
  if (['a', 'an', 'the', 'our', 'their', 'my'].includes(tokens[j]?.norm ?? '')) j++;
  for (let k = j; k < Math.min(to, j + 4); k++) if (ROLES.has(tokens[k]?.norm ?? '')) return true;
  return false;
}

/** "ask for Name", "request Name". */
function askedFor(tokens: readonly Token[], i: number, to: number): string | undefined {
  const t = tokens[i];
  if (t?.norm === 'ask' && tokens[i + 1]?.norm === 'for') return readName(tokens, i + 2, to);
  return t?.norm === 'request' ? readName(tokens, i + 1, to) : undefined;
}

/** compromise's people in a sentence: the fallback for a lower-case name. */
function peopleIn(sentence: string): string[] {
  const out: string[] = [];
  for (const person of nlp(sentence).people().out('array') as string[]) {
    const name = person.replace(/[^\p{L}' -]/gu, '').trim();
    if (name && !NOT_NAMES.has(name.toLowerCase())) out.push(name.replace(/\b\p{Ll}/gu, (c) => c.toUpperCase()));
  }
  return out;
}

/** The names one sentence, tokens [from, to), gives staff. */
function namesInSentence(text: string, tokens: readonly Token[], from: number, to: number): Set<string> {
  const found = new Set<string>();
  // compromise is slow (~1 ms a sentence): only asked when a role word is followed by a lower-case
  // word that may be a name ("our tech brandon was great"); compromise then decides.
  let lowerCaseName = false;
  for (let i = from; i < to; i++) {
    const t = tokens[i];
    if (!t) continue;
    if (ROLES.has(t.norm)) {
      const role = afterRole(tokens, i, to);
      if (role.name) found.add(role.name);
      lowerCaseName ||= role.lowerCase;
    }
    if (nameThenRole(tokens, i) || nameIsRole(tokens, i, from, to)) found.add(t.value);
    const asked = askedFor(tokens, i, to);
    if (asked) found.add(asked);
  }
  if (lowerCaseName && found.size === 0) {
    const start = tokens[from]?.start ?? 0;
    for (const name of peopleIn(text.slice(start, tokens[to - 1]?.end ?? start))) found.add(name);
  }
  return found;
}

/**
 * People the review names as staff: "our tech Brandon", "technician named Brandon", "Brandon, the
 * plumber", "ask for Brandon". Capitalisation and wink-nlp's PROPN tag decide first; compromise's
 * person recogniser is only the fallback for lower-case text with a role word but no capitalised name.
 */
export function findStaffNames(text: string, tokens: readonly Token[], spans: ReadonlyArray<[number, number]>): StaffName[] {
  const out: StaffName[] = [];
  for (const [from, to] of spans) {
    const start = tokens[from]?.start ?? 0;
    const end = tokens[to - 1]?.end ?? start;
    for (const name of namesInSentence(text, tokens, from, to)) out.push({ name, start, end });
  }
  return out;
}
