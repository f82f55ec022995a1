import type { Topic } from '../schema.js';
import { byCodeUnit, round, type ReportContext } from './context.js';

const MAX_TOPICS = 15;
const MIN_MENTIONS = 2;

/** Recurring noun phrases, counted once per review, scored by the sentences they occur in. */
export function buildTopics(ctx: ReportContext): Topic[] {
  const byPhrase = new Map<string, { reviewIds: string[]; signs: number[] }>();
  for (const { review, analysis } of ctx.items) {
    const seen = new Set<string>();
    for (const k of analysis.keyPhrases) {
      const entry = byPhrase.get(k.phrase) ?? { reviewIds: [], signs: [] };
      const s = analysis.sentences[k.sentence];
      entry.signs.push(s ? Math.sign(Math.abs(s.score) > 0.3 ? s.score : 0) : 0);
      if (!seen.has(k.phrase)) {
        seen.add(k.phrase);
        entry.reviewIds.push(review.id);
      }
      byPhrase.set(k.phrase, entry);
    }
  }
  return (
    [...byPhrase]
      // A topic is something reviewers have an opinion on: a phrase only ever met in neutral sentences
      // (the customer's own story: "our water bill", "the bathroom wall staining") is not one.
      .filter(([, e]) => e.reviewIds.length >= MIN_MENTIONS && e.signs.some((sign) => sign !== 0))
      .map(([phrase, e]) => ({
        phrase,
        mentions: e.reviewIds.length,
        score: round(e.signs.reduce((a, b) => a + b, 0) / e.signs.length),
        review_ids: e.reviewIds,
      }))
      .sort((a, b) => b.mentions - a.mentions || byCodeUnit(a.phrase, b.phrase))
      .slice(0, MAX_TOPICS)
  );
}
