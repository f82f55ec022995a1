import type { Business } from '../../domain/business.js';
import type { AspectInsight, EntitiesSection, FaqEntry } from '../schema.js';
import { listing, MIN_EVIDENCE, percent, plural, type ReportContext } from './context.js';

/** The verdict in words, chosen from the counts so the sentence can never contradict them. */
function aspectAnswer(a: AspectInsight): string {
  const topic = a.label.toLowerCase();
  if (a.mentions < MIN_EVIDENCE) {
    return a.mentions === 0
      ? `Not enough reviews yet: none of the published reviews talks about ${topic}.`
      : `Not enough reviews yet: only ${plural(a.mentions, 'review')} ${a.mentions === 1 ? 'talks' : 'talk'} about ${topic}.`;
  }
  const counts =
    a.positive === a.mentions
      ? `all ${a.mentions} reviews that mention ${topic} are positive`
      : a.negative === a.mentions
        ? `all ${a.mentions} reviews that mention ${topic} are negative`
        : `${a.positive} of the ${a.mentions} reviews that mention ${topic} are positive and ${a.negative} negative`;
  const share = a.positive / a.mentions;
  const negShare = a.negative / a.mentions;
  let verdict: string;
  if (share >= 0.8 && a.negative === 0) verdict = `Reviewers are consistently happy here: ${counts}.`;
  else if (share >= 0.75) verdict = `Mostly yes: ${counts} (${percent(a.positive, a.mentions)} positive).`;
  else if (share >= 0.5 && share > negShare) verdict = `More good than bad, but not uniformly: ${counts}.`;
  else if (negShare >= 0.5) verdict = `This is a common complaint: ${counts}.`;
  else verdict = `Opinions are divided: ${counts}.`;
  const quote = a.highlights.find((h) => h.polarity === (negShare >= 0.5 ? 'negative' : 'positive'));
  return quote ? `${verdict} One reviewer wrote: "${quote.quote.trim()}"` : verdict;
}

function whoToAskFor(entities: EntitiesSection): FaqEntry {
  const liked = entities.technicians
    .filter((t) => t.mentions >= 2 && t.sentiment.positive > t.sentiment.negative)
    .sort((a, b) => b.sentiment.positive - a.sentiment.positive || b.sentiment.score - a.sentiment.score || a.name.localeCompare(b.name))
    .slice(0, 2);
  const question = 'Who should I ask for?';
  if (liked.length === 0) {
    const named = entities.technicians.filter((t) => t.mentions > 0);
    return {
      question,
      answer: `Not enough reviews yet to recommend anyone by name${named.length ? `: ${plural(named.length, 'technician')} ${named.length === 1 ? 'is' : 'are'} mentioned, none in two or more mostly positive reviews` : ''}.`,
      evidence: {
        review_count: new Set(named.flatMap((t) => t.review_ids)).size,
        review_ids: [...new Set(named.flatMap((t) => t.review_ids))],
      },
    };
  }
  const parts = liked.map(
    (t) =>
      `${t.name} is named in ${plural(t.mentions, 'review')}, ${t.sentiment.positive} of them positive${t.average_rating !== null ? ` (average rating ${t.average_rating.toFixed(1)})` : ''}`,
  );
  const ids = [...new Set(liked.flatMap((t) => t.review_ids))];
  return { question, answer: `${parts.join('; ')}.`, evidence: { review_count: ids.length, review_ids: ids } };
}

function serviceAreas(entities: EntitiesSection, business: Business): FaqEntry {
  const question = 'Do they serve my town?';
  const withReviews = entities.service_areas.filter((a) => a.mentions > 0);
  const without = business.service_areas.filter((a) => !withReviews.some((w) => w.id === a.id)).map((a) => a.name);
  const ids = [...new Set(withReviews.flatMap((a) => a.review_ids))];
  const sentences: string[] = [];
  if (withReviews.length > 0) {
    sentences.push(
      `Reviews mention work in ${listing(withReviews.slice(0, 6).map((a) => `${a.name} (${plural(a.mentions, 'review')})`))}.`,
    );
  }
  if (without.length > 0) {
    sentences.push(
      `${withReviews.length > 0 ? 'They also list' : 'They list'} ${listing(without.slice(0, 8))} as ${without.length === 1 ? 'a service area' : 'service areas'}${withReviews.length > 0 ? ', with no reviews from there yet' : ', but no review mentions a town yet'}.`,
    );
  }
  if (sentences.length === 0) sentences.push('Not enough reviews yet: no review mentions a town and no service areas are listed.');
  return { question, answer: sentences.join(' '), evidence: { review_count: ids.length, review_ids: ids } };
}

export function buildFaq(
  ctx: ReportContext,
  aspects: readonly AspectInsight[],
  aspectReviewIds: ReadonlyMap<string, string[]>,
  entities: EntitiesSection,
  business: Business,
): FaqEntry[] {
  const faq: FaqEntry[] = [];
  for (const def of ctx.taxonomy.aspects) {
    const a = aspects.find((x) => x.id === def.id);
    if (!a || !def.question) continue;
    const ids = aspectReviewIds.get(a.id) ?? [];
    faq.push({ question: def.question, answer: aspectAnswer(a), evidence: { review_count: ids.length, review_ids: ids } });
  }
  // People and towns are questions about trades that come to the customer; a restaurant without a
  // catalog of either is not asked them.
  const visiting = ctx.taxonomy.id === 'home-services' || ctx.taxonomy.extends === 'home-services';
  if (visiting || business.technicians.length > 0) faq.push(whoToAskFor(entities));
  if (visiting || business.service_areas.length > 0) faq.push(serviceAreas(entities, business));
  return faq;
}
