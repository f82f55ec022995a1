import type { Token } from '../nlp/wink.js';

/** One step of a compiled cue (syntax in taxonomy.ts). */
type Step =
  | { kind: 'word'; words: ReadonlySet<string>; prefixes: readonly string[]; entities: readonly string[]; optional: boolean }
  | { kind: 'gap'; max: number };

interface Compiled<P> {
  steps: Step[];
  payload: P;
  /** The scan position at which this cue was last tried, so a cue indexed twice is tried once. */
  stamp: number;
  /** The first step reads only entity types: such a cue cannot start at a token of no entity and no digit. */
  entityOnly: boolean;
}

export interface CueMatch<P> {
  start: number;
  end: number;
  payload: P;
}

const GAP_MAX = 3;
const LONG_GAP_MAX = 8;

function compileStep(raw: string): Step {
  if (raw === '..') return { kind: 'gap', max: GAP_MAX };
  if (raw === '_') return { kind: 'word', words: new Set(), prefixes: [''], entities: [], optional: false };
  if (raw === '...') return { kind: 'gap', max: LONG_GAP_MAX };
  const optional = raw.startsWith('?') && raw.length > 1;
  const body = optional ? raw.slice(1) : raw;
  const words = new Set<string>();
  const prefixes: string[] = [];
  const entities: string[] = [];
  for (const alt of body.split('|')) {
    if (alt.length > 1 && alt.startsWith('#')) entities.push(alt.slice(1));
    else if (alt.length > 1 && alt.endsWith('*')) prefixes.push(alt.slice(0, -1).toLowerCase());
    else if (alt) words.add(alt.toLowerCase());
  }
  return { kind: 'word', words, prefixes, entities, optional };
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

function entityMatches(type: string, t: Token): boolean {
  if (type === 'NUM') return t.isNumber || /^\d/.test(t.norm);
  // Clock times: wink tags "9am" as TIME but leaves "10:15" a plain number.
  if (type === 'CLOCK') return t.entity === 'TIME' || /^\d{1,2}(:\d\d)?\s*(am|pm|a\.m\.|p\.m\.)?$/.test(t.norm);
  return t.entity === type;
}

function tokenMatches(step: Exclude<Step, { kind: 'gap' }>, t: Token): boolean {
  // wink's normal form rewrites some spellings ("through" becomes "thru"): the raw word counts too.
  // (Most tokens' three forms are one word: it is looked up once.)
  if (step.words.has(t.norm)) return true;
  if (t.lemma !== t.norm && step.words.has(t.lemma)) return true;
  if (t.lower !== t.norm && t.lower !== t.lemma && step.words.has(t.lower)) return true;
  for (const p of step.prefixes) if (t.norm.startsWith(p)) return true;
  for (const e of step.entities) if (entityMatches(e, t)) return true;
  return false;
}

/** Returns the end (exclusive) of the shortest match of steps[si..] starting at token ti, or -1. */
function matchFrom(steps: readonly Step[], si: number, tokens: readonly Token[], ti: number, limit: number): number {
  if (si === steps.length) return ti;
  const step = steps[si];
  if (!step) return -1;
  if (step.kind === 'gap') {
    for (let g = 0; g <= step.max && ti + g <= limit; g++) {
      const end = matchFrom(steps, si + 1, tokens, ti + g, limit);
      if (end >= 0) return end;
    }
    return -1;
  }
  const t = ti < limit ? tokens[ti] : undefined;
  if (t && tokenMatches(step, t)) {
    const end = matchFrom(steps, si + 1, tokens, ti + 1, limit);
    if (end >= 0) return end;
  }
  return step.optional ? matchFrom(steps, si + 1, tokens, ti, limit) : -1;
}

/** Whether out[from..] (the matches starting at the current token) already holds this one. */
function hasMatch<P>(out: readonly CueMatch<P>[], from: number, end: number, payload: P): boolean {
  for (let k = from; k < out.length; k++) {
    const m = out[k];
    if (m && m.end === end && m.payload === payload) return true;
  }
  return false;
}

/**
 * A set of cues compiled once, indexed by the literal words a match can start with so that a
 * sentence is scanned in time proportional to its length, not to the number of cues.
 */
export class CueMatcher<P> {
  private readonly byWord = new Map<string, Compiled<P>[]>();
  private readonly scanned: Compiled<P>[] = [];
  private clock = 0;

  add(cue: string, payload: P): void {
    const steps = cue.trim().split(/\s+/).filter(Boolean).map(compileStep);
    const first = steps[0];
    if (!first || first.kind === 'gap') throw new Error(`invalid cue "${cue}": it must start with a word`);
    const entityOnly = first.kind === 'word' && first.words.size === 0 && first.prefixes.length === 0 && first.entities.length > 0;
    const entry: Compiled<P> = { steps, payload, stamp: -1, entityOnly: entityOnly && !first.optional };
    if (first.kind === 'word' && !first.optional && first.prefixes.length === 0 && first.entities.length === 0 && first.words.size > 0) {
      for (const w of first.words) {
        let list = this.byWord.get(w);
        if (!list) this.byWord.set(w, (list = []));
        list.push(entry);
      }
    } else {
      this.scanned.push(entry);
    }
  }

  /**
   * Every match within tokens [from, to), leftmost first. Two cues matching the same tokens with the
   * same payload object count once ("keep|kept us updated"), so callers should share payload objects.
   */
  match(tokens: readonly Token[], from: number, to: number): CueMatch<P>[] {
    const out: CueMatch<P>[] = [];
    for (let i = from; i < to; i++) {
      const t = tokens[i];
      if (!t) continue;
      const a = this.byWord.get(t.norm);
      const b = t.lemma !== t.norm ? this.byWord.get(t.lemma) : undefined;
      const c = t.lower !== t.norm && t.lower !== t.lemma ? this.byWord.get(t.lower) : undefined;
      // Entity cues start only at a token of some entity, or a digit (#NUM, #CLOCK).
      const entityLike = t.entity !== '' || t.isNumber || isDigit(t.norm.charCodeAt(0));
      if (!a && !b && !c && this.scanned.length === 0) continue;
      const stamp = ++this.clock;
      const firstAtI = out.length;
      if (a) this.tryAll(a, stamp, tokens, i, to, out, firstAtI, true);
      if (b) this.tryAll(b, stamp, tokens, i, to, out, firstAtI, true);
      if (c) this.tryAll(c, stamp, tokens, i, to, out, firstAtI, true);
      this.tryAll(this.scanned, stamp, tokens, i, to, out, firstAtI, entityLike);
    }
    return out;
  }

  private tryAll(
    list: readonly Compiled<P>[],
    stamp: number,
    tokens: readonly Token[],
    i: number,
    to: number,
    out: CueMatch<P>[],
    firstAtI: number,
    entityLike: boolean,
  ): void {
    for (const c of list) {
      if (c.stamp === stamp || (c.entityOnly && !entityLike)) continue;
      c.stamp = stamp;
      const end = matchFrom(c.steps, 0, tokens, i, to);
      if (end > i && !hasMatch(out, firstAtI, end, c.payload)) out.push({ start: i, end, payload: c.payload });
    }
  }
}
