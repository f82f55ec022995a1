import type { Token } from '../nlp/wink.js';

/**
 * Negation scope, the classic way (Das & Chen 2001; Pang et al. 2002): every word after a negator
 * up to the next clause punctuation or contrast word is marked, so "not clean" and "clean" are
 * different features and the model learns what negation does to each.
 */
const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'nobody',
  'nothing',
  'none',
  'nowhere',
  'neither',
  'nor',
  'without',
  'hardly',
  'barely',
  'cannot',
  'nt',
  'dont',
  'didnt',
  'doesnt',
  'wasnt',
  'werent',
  'wont',
  'cant',
  'couldnt',
  'wouldnt',
  'isnt',
  'havent',
  'hasnt',
  'hadnt',
]);
const SCOPE_END = new Set([',', '.', ';', ':', '!', '?', 'but', 'however', 'though', 'although', 'yet', '(', ')', '-', '–', '—']);
/** Negation reaches at most this many words: long scopes mark words the negator does not govern. */
const MAX_SCOPE = 6;

/** For each token in [from, to): whether it lies in a negation scope. */
export function negationScope(tokens: readonly Token[], from: number, to: number): Uint8Array {
  const marked = new Uint8Array(to - from);
  let left = 0;
  for (let i = from; i < to; i++) {
    const norm = tokens[i]?.norm ?? '';
    if (SCOPE_END.has(norm)) {
      left = 0;
      continue;
    }
    if (left > 0) {
      marked[i - from] = 1;
      left -= 1;
    }
    if (NEGATORS.has(norm)) left = MAX_SCOPE;
  }
  return marked;
}
