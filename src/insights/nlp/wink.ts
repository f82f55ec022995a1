import winkNLP, { type ItemSentence, type ItsFunction } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { recognizeEntities } from './entities.js';

/** One token with its place in the original text, so quotes can be cut as exact substrings. */
export interface Token {
  /** Lower-cased normal form ("n't" becomes "not"). */
  norm: string;
  lemma: string;
  pos: string;
  /** The text as written, for capitalisation checks (names). */
  value: string;
  /** The text as written, lower-cased. */
  lower: string;
  start: number;
  end: number;
  /** Entity type covering the token (MONEY, DURATION, TIME, DATE ..., entities.ts), or '' when none. */
  entity: string;
  isNumber: boolean;
}

export interface TokenizedText {
  tokens: Token[];
  /** Sentences as [first token, last token + 1). */
  sentences: Array<[number, number]>;
}

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | undefined;

/**
 * The model takes ~1 s to load: once per process, on first use. Only the pipes the engine reads
 * (sentences, part of speech): wink's negation and sentiment pipes are replaced by the clause-level
 * scoring, its entity pipe by entities.ts (it was half the time of tokenizing).
 */
function getNlp(): Nlp {
  nlp ??= winkNLP(model, ['sbd', 'pos']);
  return nlp;
}

const WORDISH = /^[\p{L}\p{N}]/u;

/**
 * wink-nlp splits "follow-up", "clean-cut", "on-time" into three tokens; reviewers' compounds are
 * single words to the cues (and a hyphen with no space around it is not a clause break).
 */
function mergeHyphenated(tokens: Token[]): { merged: Token[]; indexOf: number[] } {
  const merged: Token[] = [];
  const indexOf: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!t) continue;
    const last = merged[merged.length - 1];
    const next = tokens[i + 1];
    if (
      t.norm === '-' &&
      last &&
      next &&
      last.end === t.start &&
      t.end === next.start &&
      WORDISH.test(last.norm) &&
      WORDISH.test(next.norm)
    ) {
      const norm = `${last.norm}-${next.norm}`;
      merged[merged.length - 1] = {
        ...last,
        norm,
        lemma: `${last.norm}-${next.lemma}`,
        value: `${last.value}-${next.value}`,
        lower: `${last.lower}-${next.lower}`,
        end: next.end,
        pos: next.pos,
        isNumber: last.isNumber && next.isNumber,
      };
      indexOf[i] = merged.length - 1;
      indexOf[i + 1] = merged.length - 1;
      i++;
      continue;
    }
    merged.push(t);
    indexOf[i] = merged.length - 1;
  }
  return { merged, indexOf };
}

export function tokenize(text: string): TokenizedText {
  const engine = getNlp();
  const its = engine.its;
  const doc = engine.readDoc(text);
  const values = doc.tokens().out(its.value) as string[];
  const norms = doc.tokens().out(its.normal) as string[];
  // The lemma helper's published type does not fit `out`; it is a token its-function at run time.
  const lemmas = doc.tokens().out(its.lemma as unknown as ItsFunction<string>) as string[];
  const pos = doc.tokens().out(its.pos) as string[];
  const types = doc.tokens().out(its.type) as string[];
  const entityOf = recognizeEntities(values.map((v, i) => ({ norm: (norms[i] ?? v).toLowerCase(), type: types[i] ?? '' })));
  const tokens: Token[] = [];
  let cursor = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] ?? '';
    // wink keeps every token's original characters, in order; searching from the cursor recovers offsets.
    let start = text.indexOf(value, cursor);
    if (start < 0) start = cursor;
    const end = start + value.length;
    cursor = end;
    tokens.push({
      norm: (norms[i] ?? value).toLowerCase(),
      lemma: (lemmas[i] ?? value).toLowerCase(),
      pos: pos[i] ?? 'X',
      value,
      lower: value.toLowerCase(),
      start,
      end,
      entity: entityOf[i] ?? '',
      isNumber: types[i] === 'number' || types[i] === 'ordinal',
    });
  }
  const { merged, indexOf } = mergeHyphenated(tokens);
  const sentences: Array<[number, number]> = [];
  doc.sentences().each((s: ItemSentence) => {
    const [a, b] = s.out(its.span) as unknown as [number, number];
    sentences.push([indexOf[a] ?? 0, (indexOf[b] ?? merged.length - 1) + 1]);
  });
  return { tokens: merged, sentences };
}
