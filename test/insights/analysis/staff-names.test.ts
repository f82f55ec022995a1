import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/insights/nlp/wink.js';
import { findStaffNames } from '../../../src/insights/analysis/staff-names.js';

function names(text: string): string[] {
  const { tokens, sentences } = tokenize(text);
  return findStaffNames(text, tokens, sentences).map((n) => n.name);
}

describe('staff names', () => {
  it('finds a person praised by role: "Name is the best plumber"', () => {
    expect(names("Maria is the best plumber we've ever had.")).toEqual(['Maria']);
    expect(names('Dave was a really great tech.')).toEqual(['Dave']);
  });
  it('does not take a company or a thing for a person', () => {
    expect(names('The Rheem is the best water heater we have owned.')).toEqual([]);
    expect(names('Honestly the best HVAC company in Round Rock.')).toEqual([]);
  });
});
