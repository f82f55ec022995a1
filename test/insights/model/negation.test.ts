import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/insights/nlp/wink.js';
import { negationScope } from '../../../src/insights/model/negation.js';

function marked(text: string): string[] {
  const { tokens } = tokenize(text);
  const scope = negationScope(tokens, 0, tokens.length);
  return tokens.filter((_, i) => scope[i] === 1).map((t) => t.norm);
}

describe('negation scope', () => {
  it('marks the words after a negator up to the clause end', () => {
    expect(marked("They didn't leave a mess, and the price was fair.")).toEqual(['leave', 'a', 'mess']);
  });
  it('stops at a contrast word and starts again after a new negator', () => {
    expect(marked('Not cheap but never pushy')).toEqual(['cheap', 'pushy']);
  });
  it('reaches at most six words', () => {
    expect(marked('nobody from the office ever bothered to call us back about it')).toHaveLength(6);
  });
  it('marks nothing without a negator', () => {
    expect(marked('On time and very polite.')).toEqual([]);
  });
});
