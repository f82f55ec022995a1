import { describe, expect, it } from 'vitest';
import { createInsightsEngine } from '../engine.js';
import { fixtureReview, fixtureView } from '../../../test/support/insights-fixture.js';
import { trimmed } from './aspects.js';

const engine = createInsightsEngine();

describe('aspect highlights', () => {
  const reviews = [
    fixtureReview(['h1', '2026-05-05', 5, 'The tech was polite, friendly and very respectful of our home.']),
    fixtureReview(['h2', '2026-05-04', 5, 'The tech was polite, friendly and very respectful of our home.']),
    fixtureReview(['h3', '2026-05-03', 5, 'The technician was polite, friendly and very respectful of our home.']),
    fixtureReview(['h4', '2026-05-02', 5, 'Great visit.\n\nThe tech was courteous and professional.  ']),
    fixtureReview(['h5', '2026-05-01', 4, 'Honest about what we needed, though the salesy follow-up calls got old.']),
    fixtureReview(['h6', '2026-04-30', 5, 'Mike kept us updated by text the whole time.']),
  ];
  const doc = engine.compute(fixtureView(reviews));

  it('never repeats a quote (or a near copy of it) within an aspect', () => {
    for (const a of doc.aspects) {
      const quotes = a.highlights.map((h) => h.quote.toLowerCase());
      expect(new Set(quotes).size, a.id).toBe(quotes.length);
    }
    const professionalism = doc.aspects.find((a) => a.id === 'professionalism');
    const polite = professionalism?.highlights.filter((h) => h.quote.includes('polite, friendly')) ?? [];
    expect(polite.length).toBeLessThanOrEqual(1);
  });

  it('trims white space around quotes, which stay exact substrings of their review', () => {
    const all = doc.aspects.flatMap((a) => a.highlights);
    expect(all.length).toBeGreaterThan(0);
    for (const h of all) {
      expect(h.quote).toBe(h.quote.trim());
      expect(reviews.find((r) => r.id === h.review_id)?.text).toContain(h.quote);
    }
    const text = '\n\n  Booking online took two minutes. ';
    const { start, end } = trimmed(text, 0, text.length);
    expect(text.slice(start, end)).toBe('Booking online took two minutes.');
  });

  it('does not show a complaint as a positive highlight', () => {
    const communication = doc.aspects.find((a) => a.id === 'communication');
    for (const h of communication?.highlights ?? []) {
      if (h.polarity === 'positive') expect(h.quote).not.toContain('salesy');
    }
  });
});

describe('summary wording', () => {
  it('ranks strengths by the number of positive reviews when it says "most often"', () => {
    const reviews = [
      ...Array.from({ length: 6 }, (_, i) => fixtureReview([`p${i}`, `2026-06-0${i + 1}`, 5, 'Fair price, very reasonable.'])),
      ...Array.from({ length: 4 }, (_, i) => fixtureReview([`q${i}`, `2026-05-0${i + 1}`, 2, 'Way overpriced for what they did.'])),
      ...Array.from({ length: 4 }, (_, i) => fixtureReview([`o${i}`, `2026-04-0${i + 1}`, 5, 'Showed up right on time.'])),
    ];
    const doc = engine.compute(fixtureView(reviews));
    const price = doc.aspects.find((a) => a.id === 'price');
    const punctuality = doc.aspects.find((a) => a.id === 'punctuality');
    expect(price?.positive).toBeGreaterThan(punctuality?.positive ?? 0);
    const sentence = doc.summary.text.split('. ').find((x) => x.startsWith('Reviewers most often praise')) ?? '';
    // The listed aspects, in the order written, are the ones with the most positive reviews, in that order.
    const listed = doc.aspects
      .filter((a) => sentence.includes(`${a.label.toLowerCase()} (${a.positive} of ${a.mentions} positive)`))
      .sort((a, b) => sentence.indexOf(a.label.toLowerCase()) - sentence.indexOf(b.label.toLowerCase()));
    expect(listed.map((a) => a.id)).toContain('price');
    const positives = listed.map((a) => a.positive);
    expect(positives).toEqual([...positives].sort((a, b) => b - a));
    const least = Math.min(...positives);
    for (const a of doc.aspects) if (a.positive > least && a.positive > a.negative) expect(listed).toContain(a);
  });
});

describe('FAQ', () => {
  it('recommends technicians by an evidence-weighted score and states it', () => {
    const reviews = [
      // Mike: many mentions, a third of them complaints.
      ...Array.from({ length: 9 }, (_, i) => fixtureReview([`m${i}`, `2026-06-${10 + i}`, 5, 'Mike was great, very friendly.'])),
      ...Array.from({ length: 5 }, (_, i) => fixtureReview([`n${i}`, `2026-05-${10 + i}`, 1, 'Mike was rude and sloppy.'])),
      // Jose: fewer mentions, all of them praise.
      ...Array.from({ length: 8 }, (_, i) => fixtureReview([`j${i}`, `2026-04-${10 + i}`, 5, 'Jose was great, very friendly.'])),
      // Dave: one glowing review is not enough evidence to outrank them.
      fixtureReview(['d0', '2026-03-01', 5, 'Dave was amazing.']),
    ];
    const doc = engine.compute(fixtureView(reviews));
    const faq = doc.faq.find((f) => f.question === 'Who should I ask for?');
    const answer = faq?.answer ?? '';
    expect(answer).toMatch(/share of positive reviews/);
    expect(answer).toContain('José Ramírez (named in 8 reviews, 8 positive');
    expect(answer.indexOf('José')).toBeLessThan(answer.indexOf('Mike'));
    expect(faq?.answer).not.toContain('Dave');
  });

  it('answers "how soon" with how soon, not with "yes"', () => {
    const reviews = Array.from({ length: 5 }, (_, i) =>
      fixtureReview([`s${i}`, `2026-06-0${i + 1}`, 5, 'They came out the same day, easy to schedule.']),
    );
    const doc = engine.compute(fixtureView(reviews));
    const faq = doc.faq.find((f) => f.question.startsWith('How soon'));
    expect(faq?.answer).toBeDefined();
    expect(faq?.answer).not.toMatch(/^(Yes|Mostly yes)/);
  });
});

describe('topics', () => {
  it('keeps phrases about the service and drops the house, the family and the neutral backstory', () => {
    const reviews = [1, 2, 3].map((i) =>
      fixtureReview([
        `t${i}`,
        `2026-06-0${i}`,
        5,
        'Our water bill doubled last month. He wiped his boots at the front door and was kind to my elderly mother. The new water heater works great.',
      ]),
    );
    const doc = engine.compute(fixtureView(reviews));
    const phrases = doc.topics.map((t) => t.phrase);
    expect(phrases).toContain('water heater');
    for (const gone of ['front door', 'elderly mother', 'water bill']) expect(phrases).not.toContain(gone);
  });
});
