import { describe, expect, it } from 'vitest';
import { createTaxonomyRegistry } from '../../../src/insights/registry.js';
import { analyzeText } from '../../../src/insights/analysis/analyze-text.js';
import { snippetAspects } from '../../../src/absa-tools/snippet.js';
import { compileTaxonomy } from '../../../src/insights/analysis/compiled-taxonomy.js';

const registry = createTaxonomyRegistry();
const home = compileTaxonomy(registry.get('home-services')!);
const aspects = (text: string): Record<string, string> => Object.fromEntries(snippetAspects(text, home));

describe('negation', () => {
  it('flips a negated complaint into praise and a negated praise into a complaint', () => {
    expect(aspects('They did not leave a mess.')).toEqual({ cleanliness: 'positive' });
    expect(aspects("He wasn't the friendliest guy.")).toEqual({ professionalism: 'negative' });
    expect(aspects('No shoe covers, no drop cloth, nothing.').cleanliness).toBe('negative');
  });

  it('reads litotes and idioms that contain a negation', () => {
    expect(aspects("Same day service on a Sunday, can't beat that.").scheduling).toBe('positive');
    expect(analyzeText("Couldn't be happier with the result.", home).sentences[0]?.score).toBeGreaterThan(0);
    expect(analyzeText('Not bad at all.', home).sentences[0]?.score).toBeGreaterThan(0);
  });

  it('handles negations written without an apostrophe', () => {
    expect(aspects('the plumber didnt fix anything').quality).toBe('negative');
  });
});

describe('contrast', () => {
  it('gives each aspect the opinion of its own clause', () => {
    expect(aspects('Great work on the panel upgrade, but the office never called back about the permit.')).toEqual({
      quality: 'positive',
      communication: 'negative',
    });
    expect(aspects("They're a little pricey but the install was flawless.")).toEqual({ price: 'negative', quality: 'positive' });
  });

  it('lets the side after "but" win when one aspect has both', () => {
    expect(aspects('Not the cheapest quote we got, but honestly worth every penny.')).toEqual({ price: 'positive' });
  });
});

describe('intensifiers', () => {
  it('scales the opinion word they modify', () => {
    const plain = analyzeText('The tech was rude.', home).sentences[0]?.score ?? 0;
    const strong = analyzeText('The tech was extremely rude.', home).sentences[0]?.score ?? 0;
    const weak = analyzeText('The tech was a bit rude.', home).sentences[0]?.score ?? 0;
    expect(strong).toBeLessThan(plain);
    expect(weak).toBeGreaterThan(plain);
  });
});

describe('implicit aspects and domain cues', () => {
  it('finds punctuality in a duration of lateness (wink DURATION)', () => {
    expect(aspects('The tech showed up 2 hours late and didn’t even call.').punctuality).toBe('negative');
  });

  it('compares an arrival time with the booked window', () => {
    expect(aspects('They said between 12 and 4, and nobody showed up until 6:30.').punctuality).toBe('negative');
    expect(aspects('Had a 9-11 window, he came at 10:15 and was done by noon.').punctuality).toBe('positive');
    expect(aspects('We were told 10 to 2 and he rolled up at 4:45 without a word.').punctuality).toBe('negative');
    expect(aspects('Eric was here at 7:58 for an 8:00 appointment.').punctuality).toBe('positive');
    expect(aspects('He was supposed to come at 1 and texted at 3 saying he would be there at 5.').punctuality).toBe('negative');
  });

  it('finds price in a quote that was not honoured (wink MONEY)', () => {
    expect(aspects('Quoted us $300 for the repair and then charged $650 when he was done.')).toEqual({ price: 'negative' });
  });

  it('scores complaints that generic lexicons call neutral', () => {
    expect(aspects('The office never called back.').communication).toBe('negative');
    expect(aspects('They overcharged us.').price).toBe('negative');
    expect(aspects('The toilet was running again a week later and they came back twice.').quality).toBe('negative');
  });

  it('keeps traps out: "honestly" is not honesty, a messy system is not cleanliness', () => {
    expect(aspects('Honestly the best HVAC company in Round Rock.')).toEqual({});
    expect(aspects('Nice enough people, but their scheduling system is a mess.').cleanliness).toBeUndefined();
  });

  it('says neutral when an aspect is only described', () => {
    expect(aspects('The furnace tune-up was $79, which seems to be about the going rate around here.')).toEqual({ price: 'neutral' });
  });
});

describe('restaurants taxonomy', () => {
  const food = compileTaxonomy(registry.get('restaurants')!);
  it('detects the SemEval categories and falls back to anecdotes/miscellaneous', () => {
    expect(Object.fromEntries(snippetAspects('The sushi was fresh but the waiter was rude.', food))).toEqual({
      food: 'positive',
      service: 'negative',
    });
    expect(Object.fromEntries(snippetAspects('We went there for my birthday.', food))).toEqual({ 'anecdotes/miscellaneous': 'neutral' });
  });
});

describe('situation sentences', () => {
  const score = (text: string): number => analyzeText(text, home).sentences.reduce((s, x) => s + x.score, 0);

  it("treats the customer's own problem before the service as neutral, not as a complaint", () => {
    for (const text of [
      'Our water bill doubled and we suspected a hidden leak.',
      'The AC died in July.',
      'Our furnace stopped working on a 10-degree night.',
      'Our water heater started leaking all over the basement floor.',
    ]) {
      expect(aspects(text), text).toEqual({});
      expect(score(text), text).toBe(0);
    }
  });

  it('keeps complaints aimed at the business, after the visit or about waiting', () => {
    expect(aspects('The toilet was still leaking after they left.').quality).toBe('negative');
    expect(aspects('It took them 3 days to call me back about a gas leak.').communication).toBe('negative');
    expect(score('The tech broke our faucet handle.')).toBeLessThan(0);
  });

  it('keeps praise in a sentence that also describes the problem', () => {
    expect(score('Tom found the hidden leak in ten minutes, amazing.')).toBeGreaterThan(0);
  });
});

describe('cues that read the wrong aspect', () => {
  it('reads a quote far below a competitor as praise of the price', () => {
    expect(aspects('The quote was half of what another company wanted for the same job.').price).toBe('positive');
  });

  it('does not read "my crazy hours" as a price, nor an unreturned callback as a failed repair', () => {
    expect(aspects('Easy to schedule, and they worked around my crazy hours.').price).toBeUndefined();
    expect(aspects('Sam in the office promised a callback that never came.').quality).toBeUndefined();
    expect(aspects('The plumber had to make a callback because the leak came back.').quality).toBe('negative');
  });

  it('lets a longer complaint override the praise cue it contains', () => {
    expect(aspects('Honest about what we needed, though the salesy follow-up calls got old.').communication).toBe('negative');
  });
});
