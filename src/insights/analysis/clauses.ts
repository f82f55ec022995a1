import type { Token } from '../nlp/wink.js';
import { CONTRAST_AFTER, CONTRAST_BEFORE } from '../sentiment/lexicon.js';

/** A clause of a sentence, [start, end) in tokens, with the weight its opinion carries. */
export interface Clause {
  start: number;
  end: number;
  /**
   * 2 after "but/however" (the writer's verdict: "not the cheapest, but worth every penny"),
   * 0.5 in a conceded "although ..." clause, 1 otherwise.
   */
  weight: number;
  /** Contrast segment: increases at each "but", so aspects on both sides can be told apart. */
  segment: number;
}

const BOUNDARY_PUNCT = new Set([',', ';', ':', '(', ')', '-', '–', '—', '...', '…', '!', '?', '/']);

/** "X but Y", "X, and Y", "X; Y": splits at punctuation and at contrast conjunctions. */
export function splitClauses(tokens: readonly Token[], from: number, to: number): Clause[] {
  const clauses: Clause[] = [];
  let start = from;
  let weight = 1;
  let segment = 0;
  let concededOpen = false;
  const close = (end: number): void => {
    if (end > start) clauses.push({ start, end, weight, segment });
  };
  for (let i = from; i < to; i++) {
    const t = tokens[i];
    if (!t) continue;
    if (BOUNDARY_PUNCT.has(t.norm)) {
      close(i);
      start = i + 1;
      if (concededOpen) {
        // the clause after the conceded "although X," is the main one
        concededOpen = false;
        weight = 2;
        segment += 1;
      }
      continue;
    }
    // "but" as a contrast; "not only ... but also" is not one.
    const next = tokens[i + 1];
    if (CONTRAST_AFTER.has(t.norm) && i > from && !(t.norm === 'but' && next?.norm === 'also')) {
      close(i);
      start = i;
      weight = 2;
      segment += 1;
      continue;
    }
    if (CONTRAST_BEFORE.has(t.norm)) {
      close(i);
      start = i;
      weight = 0.5;
      concededOpen = true;
      if (clauses.length > 0) segment += 1;
    }
  }
  close(to);
  if (clauses.length === 0) clauses.push({ start: from, end: to, weight: 1, segment: 0 });
  return clauses;
}
