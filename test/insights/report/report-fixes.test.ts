import { describe, expect, it } from 'vitest';
import { createInsightsEngine } from '../../../src/insights/engine.js';
import { fixtureReview, fixtureView } from '../../support/insights-fixture.js';
import { trimmed } from '../../../src/insights/report/aspects.js';

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
  const reviews = [
    ...Array.from({ length: 6 }, (_, i) => fixtureReview([`p${i}`, `2026-06-0${i + 1}`, 5, 'Fair price, very reasonable.'])),
    ...Array.from({ length: 4 }, (_, i) => fixtureReview([`q${i}`, `2026-05-0${i + 1}`, 2, 'Way overpriced for what they did.'])),
    ...Array.from({ length: 5 }, (_, i) => fixtureReview([`c${i}`, `2026-04-0${i + 1}`, 5, 'Spotless, they cleaned up everything.'])),
    ...Array.from({ length: 4 }, (_, i) => fixtureReview([`o${i}`, `2026-03-0${i + 1}`, 5, 'Showed up right on time.'])),
  ];
  const doc = engine.compute(fixtureView(reviews));
  const sentences = doc.summary.text.split(/(?<=\.) /);

  it('ranks the praised aspects by the number of positive reviews when it says "most often"', () => {
    const sentence = sentences.find((x) => x.startsWith('Reviewers most often praise')) ?? '';
    // The listed aspects, in the order written, are the ones with the most positive reviews, in that order.
    const listed = doc.aspects
      .filter((a) => sentence.includes(`${a.label.toLowerCase()} (${a.positive} of ${a.mentions} positive)`))
      .sort((a, b) => sentence.indexOf(a.label.toLowerCase()) - sentence.indexOf(b.label.toLowerCase()));
    expect(listed.map((a) => a.id)).toEqual(expect.arrayContaining(['cleanliness', 'punctuality']));
    const positives = listed.map((a) => a.positive);
    expect(positives).toEqual([...positives].sort((a, b) => b - a));
  });

  it('never praises and criticises the same aspect in one summary', () => {
    const price = doc.aspects.find((a) => a.id === 'price');
    expect(price?.negative).toBeGreaterThanOrEqual(3);
    expect(doc.summary.weaknesses).toContain('price');
    const praised = sentences.find((x) => x.startsWith('Reviewers most often praise')) ?? '';
    const complained = sentences.filter((x) => /complaint|Complaints/.test(x)).join(' ');
    expect(complained).toContain('price');
    expect(praised).not.toContain('price');
    for (const id of doc.summary.strengths) expect(doc.summary.weaknesses).not.toContain(id);
  });

  it('says how recent reviews differ in shares of positive reviews, never in scores', () => {
    const trend = engine.compute(
      fixtureView([
        ...Array.from({ length: 4 }, (_, i) => fixtureReview([`n${i}`, `2026-09-0${i + 1}`, 5, 'Showed up right on time.'])),
        ...Array.from({ length: 4 }, (_, i) => fixtureReview([`l${i}`, `2025-01-0${i + 1}`, 1, 'Showed up three hours late.'])),
      ]),
    );
    const sentence = trend.summary.text.split(/(?<=\.) /).find((x) => x.startsWith('Recent reviews')) ?? '';
    expect(sentence).toMatch(
      /^Recent reviews are more positive about punctuality than earlier ones \(100% positive, against 0% before\)\.$/,
    );
    expect(trend.summary.text).not.toMatch(/score/i);
  });

  it('states one claim per sentence and no internal figure (scores)', () => {
    expect(doc.summary.text).not.toMatch(/score|-?\d\.\d\d\b/i);
    expect(sentences[0]).toMatch(/^\d+ published reviews between \S+ and \S+\.$/);
    expect(sentences[1]).toMatch(/^Their average rating is \d\.\d out of 5\.$/);
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
