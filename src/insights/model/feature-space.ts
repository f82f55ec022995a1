/**
 * Where feature names become feature indices.
 *
 * A feature is a template and up to two words ("u" + "clean", "b" + "on" "time", "a" + "price" "cheap"),
 * named `template:word` or `template:word word` in the model file. Feature extraction (features.ts) is
 * written once against `FeatureSpace<W>` and runs in two spaces:
 * - `NamingSpace` (training): words are strings and every feature is named, so training can count
 *   them and choose its dictionary;
 * - `IndexedSpace` (prediction): built once from a model's feature names, words are integer ids and a
 *   feature's index is one numeric look-up of (template, word ids). A sentence costs one string look-up
 *   per token (its word's id), never one per feature.
 * Both give the same vector for the same sentence: the same names, set in the same order, the last
 * value of a feature set twice winning.
 */
import type { SparseVector } from './logistic.js';

/** The templates. A template's words are its arguments; `x` holds fixed names ("lex+", "len:short"). */
export const TEMPLATES = [
  'x', // a fixed name
  'u', // detection unigram (negation-marked term or lemma)
  'b', // detection bigram
  'v', // detection word-vector dimension
  'c', // detection: a cue of (aspect, kind) matched
  'r', // detection: the cue rules' verdict (aspect) or (aspect, polarity)
  'n', // detection: a cue of (aspect) matched in a neighbouring sentence
  'q', // the review's star rating
  'p', // detection: where the sentence sits in its review
  'A', // polarity: the aspect judged
  's', // polarity: sentence unigram
  'wu', // polarity: carrier-clause unigram
  'wb', // polarity: carrier-clause bigram
  'wv', // polarity: carrier-clause word-vector dimension
  'a', // polarity: (aspect, carrier word)
  'ra', // polarity: (aspect, the rules' polarity)
  'ck', // polarity: a cue kind of the judged aspect
  'qa', // polarity: (aspect, rating)
  'ql', // polarity: (rating, the carrier clause's lexicon sign)
] as const;
export type Template = (typeof TEMPLATES)[number];

const TEMPLATE_INDEX = new Map<string, number>(TEMPLATES.map((t, i) => [t, i]));
/** The same as an object: a property read on a constant-shaped object, cheaper than a Map per feature. */
const TEMPLATE_CODE = Object.fromEntries(TEMPLATES.map((t, i) => [t, i])) as Record<Template, number>;

/** Words a template may carry: a space separates two, so a word never holds one (features.ts drops such words). */
export const WORD_SEPARATOR = ' ';

export function featureName(template: Template, a?: string, b?: string): string {
  return b === undefined ? (a === undefined ? `${template}:` : `${template}:${a}`) : `${template}:${a ?? ''}${WORD_SEPARATOR}${b}`;
}

/** A feature resolved once: its name (training) or its index (prediction). */
export type FeatureRef = string | number;

/** Where feature extraction writes. `W` is a word as the space knows it: a string, or an integer id. */
export interface FeatureSpace<W> {
  /** The space's handle of a word; undefined when no feature of the model holds it (prediction only). */
  word(text: string): W | undefined;
  /** Sets a feature (the last value set wins). Words the space does not know make no feature. */
  set(template: Template, value: number, a?: W, b?: W): void;
  /** A feature of constant words, resolved once (a word-vector dimension, a fixed name); undefined when the model has none. */
  resolve(template: Template, a?: W, b?: W): FeatureRef | undefined;
  /** Sets a resolved feature: no look-up at all. */
  setResolved(feature: FeatureRef, value: number): void;
}

/** Training: every feature by name. */
export class NamingSpace implements FeatureSpace<string> {
  features = new Map<string, number>();
  word(text: string): string {
    return text;
  }
  set(template: Template, value: number, a?: string, b?: string): void {
    this.features.set(featureName(template, a, b), value);
  }
  resolve(template: Template, a?: string, b?: string): FeatureRef {
    return featureName(template, a, b);
  }
  setResolved(feature: FeatureRef, value: number): void {
    this.features.set(feature as string, value);
  }
  /** The features set since the last call, and a fresh map for the next example. */
  take(): Map<string, number> {
    const out = this.features;
    this.features = new Map();
    return out;
  }
}

/** Word ids are below this, template indices below 32: (template, word) packs into one int32. */
const WORDS = 2 ** 21;
const NO_WORD = WORDS - 1;
/** Int32s per slot of a FeatureTable: key hi, key lo, value. */
const SLOT = 3;

/** Words as integer ids, shared by the spaces of one model (a sentence's words are resolved once). */
export class WordTable {
  private readonly ids = new Map<string, number>();
  intern(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.ids.size;
      if (id >= NO_WORD) throw new Error('model: too many distinct words');
      this.ids.set(word, id);
    }
    return id;
  }
  get(word: string): number | undefined {
    return this.ids.get(word);
  }
}

/**
 * (template, word, word) → feature index, open addressing over one typed array: a look-up hashes two
 * integers and allocates nothing (a Map keyed by numbers past 2^31 boxes every key). A slot's key and
 * value sit side by side, so a probe reads one cache line (most look-ups miss: a sentence's n-grams
 * are mostly not features of the model).
 */
class FeatureTable {
  private readonly mask: number;
  /** Per slot: key hi (-1: empty), key lo, value. */
  private readonly slots: Int32Array;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.mask = size - 1;
    this.slots = new Int32Array(size * SLOT).fill(-1);
  }

  /** Where (hi, lo) is, or the empty slot where it would go, as an offset into `slots`. */
  private slot(hi: number, lo: number): number {
    let h = Math.imul(hi, 0x9e3779b1) ^ Math.imul(lo + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    let i = h & this.mask;
    const slots = this.slots;
    for (;;) {
      const at = i * SLOT;
      const key = slots[at] as number;
      if (key === -1 || (key === hi && slots[at + 1] === lo)) return at;
      i = (i + 1) & this.mask;
    }
  }

  put(hi: number, lo: number, value: number): void {
    const at = this.slot(hi, lo);
    this.slots[at] = hi;
    this.slots[at + 1] = lo;
    this.slots[at + 2] = value;
  }

  get(hi: number, lo: number): number {
    const at = this.slot(hi, lo);
    return this.slots[at] === -1 ? -1 : (this.slots[at + 2] as number);
  }
}

/**
 * Prediction: a model's feature names compiled once into word ids and a hash of (template, word ids)
 * per feature. A vector is built in place (no map per sentence): `begin`, then `set`s, then `vector`.
 */
export class IndexedSpace implements FeatureSpace<number> {
  readonly size: number;
  private readonly table: FeatureTable;
  // The vector being built: the position of each feature set so far (valid where stamp === current).
  private readonly stamp: Int32Array;
  private readonly position: Int32Array;
  private current = 0;
  private ids: Int32Array = new Int32Array(64);
  private values: Float64Array = new Float64Array(64);
  private n = 0;

  constructor(
    names: readonly string[],
    private readonly words: WordTable = new WordTable(),
  ) {
    this.size = names.length;
    this.stamp = new Int32Array(names.length);
    this.position = new Int32Array(names.length);
    this.table = new FeatureTable(names.length);
    names.forEach((name, i) => {
      const colon = name.indexOf(':');
      const template = TEMPLATE_INDEX.get(name.slice(0, colon));
      if (colon < 0 || template === undefined) throw new Error(`model feature "${name}": unknown template`);
      const rest = name.slice(colon + 1);
      const space = rest.indexOf(WORD_SEPARATOR);
      const a = space < 0 ? rest : rest.slice(0, space);
      const b = space < 0 ? undefined : rest.slice(space + 1);
      const wa = rest === '' ? NO_WORD : words.intern(a);
      this.table.put(template * WORDS + wa, b === undefined ? NO_WORD : words.intern(b), i);
    });
  }

  word(text: string): number | undefined {
    return this.words.get(text);
  }

  /** The index of a feature, or -1 when the model has no such feature. */
  lookup(template: Template, a?: number, b?: number): number {
    return this.table.get(TEMPLATE_CODE[template] * WORDS + (a ?? NO_WORD), b ?? NO_WORD);
  }

  begin(): void {
    this.current += 1;
    this.n = 0;
  }

  set(template: Template, value: number, a?: number, b?: number): void {
    const i = this.table.get(TEMPLATE_CODE[template] * WORDS + (a ?? NO_WORD), b ?? NO_WORD);
    if (i >= 0) this.setResolved(i, value);
  }

  resolve(template: Template, a?: number, b?: number): FeatureRef | undefined {
    const i = this.lookup(template, a, b);
    return i < 0 ? undefined : i;
  }

  setResolved(feature: FeatureRef, value: number): void {
    const i = feature as number;
    if (this.stamp[i] === this.current) {
      this.values[this.position[i] as number] = value;
      return;
    }
    if (this.n === this.ids.length) this.grow();
    this.stamp[i] = this.current;
    this.position[i] = this.n;
    this.ids[this.n] = i;
    this.values[this.n] = value;
    this.n += 1;
  }

  private grow(): void {
    const ids = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    const values = new Float64Array(this.values.length * 2);
    values.set(this.values);
    this.ids = ids;
    this.values = values;
  }

  /**
   * The vector set since `begin`, zeros left out, in the order the features were first set (a dot
   * product needs no order). A view of buffers reused by the next vector: read it before `begin`.
   */
  vector(): SparseVector {
    let k = 0;
    for (let n = 0; n < this.n; n++) {
      const v = this.values[n] as number;
      if (v === 0) continue;
      this.ids[k] = this.ids[n] as number;
      this.values[k] = v;
      k += 1;
    }
    return { indices: this.ids.subarray(0, k), values: this.values.subarray(0, k) };
  }
}
