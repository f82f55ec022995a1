import type { Token } from '../nlp/wink.js';
import type { Polarity } from '../schema.js';
import { INTENSIFIERS, LEXICON, NEGATORS } from '../sentiment/lexicon.js';
import type { AspectCue, CompiledTaxonomy, CuePayload, SentimentCue } from './compiled-taxonomy.js';
import type { CueMatch } from './cue-matcher.js';
import { arrivalAgainstWindow } from './arrival-window.js';
import { splitClauses, type Clause } from './clauses.js';

export interface AspectOpinion {
  aspect: string;
  polarity: Polarity;
  /** Signed evidence behind the polarity; its magnitude orders highlights. */
  score: number;
  /** Probability that this judgement (aspect and polarity) is right; 1 for the cue rules. */
  confidence?: number;
}

export interface SentenceOpinions {
  aspects: AspectOpinion[];
  /** Overall opinion of the sentence, aspect or not. */
  score: number;
}

interface Opinion {
  token: number;
  value: number;
  /** The aspect whose own cue carries this opinion, if any. */
  aspect?: string;
}

const POLAR_CUE_WEIGHT = 2;
const NEUTRAL_HOLDS = 3;
const NEGATION_WINDOW = 3;
/** Default neutral band: below this much evidence an opinion is too faint to call. */
export const DEFAULT_NEUTRAL_BAND = 0.3;
/** Negating praise is weaker than the opposite complaint ("not great" is not "terrible"). */
const NEGATED_SCALE = -0.8;
/** Negation does not apply through these ("not only", "nothing but praise"). */
const NOT_NEGATING_NEXT = new Set(['only', 'just', 'but', 'doubt', 'wonder', 'matter', 'believe', 'wait']);

/** Negating subjects and adverbs reach over the whole verb phrase ("nobody from the office bothered to call"). */
const WIDE_NEGATORS = new Set(['nobody', 'never', 'one', 'none', 'nothing']);
const WIDE_WINDOW = 6;
const COMPARATIVES = new Set(['so', 'such', 'more', 'better', 'worse', 'too', 'less', 'happier', 'nicer', 'tastier', 'fresher']);

/**
 * Words that aim a sentence at the business, its people or its work: with one of them, a problem cue
 * may be a complaint about the service ("they left it leaking"), so the sentence is not a situation.
 * "them" is left out on purpose: "called them about a leak" is still the customer's story.
 */
const BUSINESS_WORDS = new Set([
  'they',
  'he',
  'she',
  'tech',
  'techs',
  'technician',
  'technicians',
  'plumber',
  'plumbers',
  'electrician',
  'electricians',
  'installer',
  'installers',
  'crew',
  'company',
  'office',
  'staff',
  'team',
  'guy',
  'guys',
  'repairman',
  'contractor',
  'dispatcher',
  'receptionist',
  'manager',
  'owner',
  'nobody',
  'someone',
  'anyone',
  'everyone',
  'their',
  'his',
  'her',
]);
/** Words that place the problem after the visit or as ongoing (a complaint, not the backstory). */
const AFTERMATH_WORDS = new Set(['still', 'again', 'afterwards', 'afterward', 'later', 'since', 'now', 'is', 'are', 'am', 'keeps']);

/**
 * A situation sentence describes the customer's own problem before the service ("Our water bill
 * doubled", "The AC died in July"): it has a situation cue of the taxonomy, and no word aimed at the
 * business or placing the problem after the visit. Its complaints are about the house, not the business.
 */
function isSituation(
  tokens: readonly Token[],
  from: number,
  to: number,
  situationCues: ReadonlyArray<{ start: number; end: number }>,
): boolean {
  if (situationCues.length === 0) return false;

  for (let i = from; i < to; i++) {
    const t = tokens[i];
    if (!t) continue;
    // "..., which is every homeowner's nightmare": a relative clause does not move the problem to now.
    const relative = i > from && ['which', 'that', 'what'].includes(tokens[i - 1]?.norm ?? '');
    if (BUSINESS_WORDS.has(t.norm) || (AFTERMATH_WORDS.has(t.norm) && !relative)) return false;
    // Waiting is for the business ("had to wait two weeks"), and so is "it took them 3 days".
    if (t.lemma === 'wait' || (t.norm === 'them' && tokens[i - 1]?.lemma === 'take')) return false;
  }
  return true;
}

function isNegated(tokens: readonly Token[], at: number, clause: Clause): boolean {
  for (let j = at - 1; j >= Math.max(clause.start, at - WIDE_WINDOW); j--) {
    const t = tokens[j];
    if (!t) continue;
    const wide = WIDE_NEGATORS.has(t.norm) && (t.norm !== 'one' || tokens[j - 1]?.norm === 'no');
    if (!wide && at - j > NEGATION_WINDOW) continue;
    if ((NEGATORS.has(t.norm) || wide) && !NOT_NEGATING_NEXT.has(tokens[j + 1]?.norm ?? '')) {
      // A negated comparison is a superlative, not a reversal: "never been treated so rudely",
      // "couldn't imagine better", "not too crazy about".
      for (let k = j + 1; k <= at; k++) if (COMPARATIVES.has(tokens[k]?.norm ?? '')) return false;
      return true;
    }
  }
  return false;
}

function intensity(tokens: readonly Token[], at: number): number {
  const prev = tokens[at - 1];
  const prev2 = tokens[at - 2];
  const f1 = prev ? (INTENSIFIERS.get(prev.norm) ?? 1) : 1;
  // "a bit late", "a little pricey": the downtoner sits two tokens back behind "a".
  const f2 = prev?.norm === 'a' || prev?.norm === 'bit' ? (prev2 ? (INTENSIFIERS.get(prev2.norm) ?? 1) : 1) : 1;
  return f1 * f2;
}

function clauseOf(clauses: readonly Clause[], token: number): Clause {
  for (const c of clauses) if (token >= c.start && token < c.end) return c;
  return clauses[clauses.length - 1] ?? { start: token, end: token + 1, weight: 1, segment: 0 };
}

function toPolarity(score: number, band: number): Polarity {
  return score > band ? 'positive' : score < -band ? 'negative' : 'neutral';
}

/** A sentence's cue matches by what they are. */
interface Cues {
  /** Aspect cues not cancelled by an `exclude` cue of the same aspect over the same words. */
  kept: Array<CueMatch<AspectCue>>;
  sentiment: Array<CueMatch<SentimentCue>>;
  situation: Array<{ start: number; end: number }>;
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean => a.start < b.end && b.start < a.end;

function sortCues(matches: ReadonlyArray<CueMatch<CuePayload>>): Cues {
  const aspectMatches: Array<CueMatch<AspectCue>> = [];
  const excludes: Array<CueMatch<AspectCue>> = [];
  const sentiment: Array<CueMatch<SentimentCue>> = [];
  const situation: Array<{ start: number; end: number }> = [];
  for (const m of matches) {
    if (m.payload.type === 'situation') situation.push(m);
    else if (m.payload.type === 'sentiment') sentiment.push(m as CueMatch<SentimentCue>);
    else if (m.payload.kind === 'exclude') excludes.push(m as CueMatch<AspectCue>);
    else aspectMatches.push(m as CueMatch<AspectCue>);
  }
  const kept = aspectMatches.filter((m) => !excludes.some((x) => x.payload.aspect === m.payload.aspect && overlaps(x, m)));
  return { kept, sentiment, situation };
}

/** What the opinions of one sentence are read against. */
interface Reading {
  tokens: readonly Token[];
  clauses: readonly Clause[];
  opinions: Opinion[];
  /** Tokens already read by a cue. */
  covered: Set<number>;
}

/** Polar aspect cues: each an opinion about its own aspect. */
function readPolarCues(r: Reading, kept: ReadonlyArray<CueMatch<AspectCue>>): void {
  const polar = kept.filter((m) => m.payload.kind === 'positive' || m.payload.kind === 'negative');
  // Of two opposite polar cues of one aspect over the same words, the longer one reads them ("salesy follow-up calls" over "follow-up").
  const shadowed = (m: CueMatch<AspectCue>): boolean =>
    polar.some(
      (o) =>
        o !== m &&
        o.payload.aspect === m.payload.aspect &&
        o.payload.kind !== m.payload.kind &&
        o.start <= m.start &&
        o.end >= m.end &&
        o.end - o.start > m.end - m.start,
    );
  for (const m of polar) {
    if (shadowed(m)) continue;
    const clause = clauseOf(r.clauses, m.start);
    const sign = m.payload.kind === 'positive' ? 1 : -1;
    const negated = isNegated(r.tokens, m.start, clause);
    const value = sign * POLAR_CUE_WEIGHT * intensity(r.tokens, m.start) * (negated ? (sign > 0 ? NEGATED_SCALE : -1) : 1);
    r.opinions.push({ token: m.start, value, aspect: m.payload.aspect });
    for (let i = m.start; i < m.end; i++) r.covered.add(i);
  }
}

/** Domain sentiment cues and idioms over the words no polar cue read, longer first ("not bad" over "bad"). */
function readSentimentCues(r: Reading, sentiment: Array<CueMatch<SentimentCue>>): void {
  sentiment.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  for (const m of sentiment) {
    let free = true;
    for (let i = m.start; i < m.end; i++) if (r.covered.has(i)) free = false;
    if (!free) continue;
    const clause = clauseOf(r.clauses, m.start);
    const negated = m.payload.negatable && isNegated(r.tokens, m.start, clause);
    const value = m.payload.value * (negated ? (m.payload.value > 0 ? NEGATED_SCALE : -1) : 1);
    r.opinions.push({ token: m.start, value });
    for (let i = m.start; i < m.end; i++) r.covered.add(i);
  }
}

/** The word lexicon on the words no cue read. */
function readLexicon(r: Reading, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    if (r.covered.has(i)) continue;
    const t = r.tokens[i];
    if (!t) continue;
    const base = LEXICON.get(t.norm) ?? LEXICON.get(t.lemma);
    if (base === undefined) continue;
    const negated = isNegated(r.tokens, i, clauseOf(r.clauses, i));
    r.opinions.push({ token: i, value: base * intensity(r.tokens, i) * (negated ? (base > 0 ? NEGATED_SCALE : -0.5) : 1) });
  }
}

/** Implicit aspect: an arrival time measured against the booked window, as a polar cue of its own. */
function readArrival(r: Reading, kept: Array<CueMatch<AspectCue>>, from: number, to: number, aspect: string | undefined): void {
  const arrival = aspect ? arrivalAgainstWindow(r.tokens, from, to) : undefined;
  if (!aspect || arrival === undefined) return;
  r.opinions.push({ token: from, value: arrival, aspect });
  kept.push({
    start: from,
    end: from + 1,
    payload: { type: 'aspect', aspect, kind: arrival === 0 ? 'neutral' : arrival > 0 ? 'positive' : 'negative' },
  });
}

/** The evidence about one aspect: opinions of its own cues and of its clauses, else of its contrast segment. */
function aspectScore(r: Reading, aspect: string, list: ReadonlyArray<CueMatch<AspectCue>>, band: number): number {
  const ownClauses = new Set(list.map((m) => clauseOf(r.clauses, m.start)));
  let score = 0;
  for (const o of r.opinions) {
    const clause = clauseOf(r.clauses, o.token);
    if (o.aspect === aspect) score += o.value * clause.weight;
    else if (ownClauses.has(clause)) score += (o.aspect ? 0.5 : 1) * o.value * clause.weight;
  }
  if (Math.abs(score) > band) return score;
  // No opinion in its own clauses: borrow from the rest of its contrast segment(s).
  const segments = new Set([...ownClauses].map((c) => c.segment));
  for (const o of r.opinions) {
    const clause = clauseOf(r.clauses, o.token);
    if (!ownClauses.has(clause) && segments.has(clause.segment) && !o.aspect) score += 0.5 * o.value * clause.weight;
  }
  return score;
}

/** The polarity of one aspect from its score and its cue kinds. */
function aspectPolarity(list: ReadonlyArray<CueMatch<AspectCue>>, score: number, band: number, compiled: CompiledTaxonomy): Polarity {
  const onlyNeutral =
    list.every((m) => m.payload.kind === 'neutral' || m.payload.kind === 'cue') && list.some((m) => m.payload.kind === 'neutral');
  // A neutral cue ("late but called ahead", "about the going rate") says the writer weighed both
  // sides: it holds unless the evidence the other way is strong.
  const anyNeutral = list.some((m) => m.payload.kind === 'neutral');
  const polarity = toPolarity(score, band);
  if ((onlyNeutral && Math.abs(score) < 2) || (anyNeutral && Math.abs(score) < NEUTRAL_HOLDS)) return 'neutral';
  if (polarity === 'neutral' && !onlyNeutral && compiled.taxonomy.default_polarity === 'positive' && Math.abs(score) <= band)
    return 'positive';
  return polarity;
}

/** Aspect opinions of one sentence, tokens [from, to). */
export function analyzeSentence(
  tokens: readonly Token[],
  from: number,
  to: number,
  compiled: CompiledTaxonomy,
  /** The taxonomy's cue matches over [from, to), when the caller has them already. */
  cueMatches?: ReadonlyArray<CueMatch<CuePayload>>,
  /** splitClauses(tokens, from, to), when the caller has it already. */
  clauses: readonly Clause[] = splitClauses(tokens, from, to),
): SentenceOpinions {
  const band = compiled.taxonomy.neutral_band ?? DEFAULT_NEUTRAL_BAND;
  const cues = sortCues(cueMatches ?? compiled.matcher.match(tokens, from, to));
  // Opinions: polar aspect cues, then domain cues and idioms, then the word lexicon on what is left.
  const r: Reading = { tokens, clauses, opinions: [], covered: new Set() };
  readPolarCues(r, cues.kept);
  readSentimentCues(r, cues.sentiment);
  readLexicon(r, from, to);
  readArrival(r, cues.kept, from, to, compiled.taxonomy.arrival_aspect);

  // The customer's own problem is no complaint about the business: its negative evidence is dropped,
  // and aspects that had nothing else are not counted at all (not even as default-positive mentions).
  const situation = isSituation(tokens, from, to, cues.situation);
  if (situation) r.opinions = r.opinions.filter((o) => o.value >= 0);

  let sentenceScore = 0;
  for (const o of r.opinions) sentenceScore += o.value * clauseOf(clauses, o.token).weight;

  const byAspect = new Map<string, Array<CueMatch<AspectCue>>>();
  for (const m of cues.kept) {
    const list = byAspect.get(m.payload.aspect) ?? [];
    list.push(m);
    byAspect.set(m.payload.aspect, list);
  }
  const aspects: AspectOpinion[] = [];
  for (const [aspect, list] of byAspect) {
    const score = aspectScore(r, aspect, list, band);
    aspects.push({ aspect, polarity: aspectPolarity(list, score, band, compiled), score });
  }
  if (situation) return { aspects: aspects.filter((a) => a.score > band), score: sentenceScore };
  const fallback = compiled.taxonomy.fallback_aspect;
  if (aspects.length === 0 && fallback) aspects.push({ aspect: fallback, polarity: toPolarity(sentenceScore, band), score: sentenceScore });
  return { aspects, score: sentenceScore };
}
