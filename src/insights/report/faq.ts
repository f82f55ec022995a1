import type { Business } from '../../domain/business.js';
import type { AspectInsight, EntitiesSection, FaqEntry } from '../schema.js';
import { byCodeUnit, listing, MIN_EVIDENCE, percent, plural, type ReportContext } from './context.js';

/** Ways to state the counts; picked by aspect position so neighbouring answers do not read alike. */
const COUNT_FORMS: Array<(a: AspectInsight, topic: string) => string> = [
  (a, topic) =>
    `${a.positive} of the ${plural(a.mentions, 'review')} that mention ${topic} ${a.positive === 1 ? 'is' : 'are'} positive and ${a.negative} negative`,
  (a, topic) =>
    `of ${plural(a.mentions, 'review')} that talk about ${topic}, ${a.positive} ${a.positive === 1 ? 'is' : 'are'} positive and ${a.negative} negative`,
  (a, topic) =>
    `${plural(a.positive, 'review')} ${a.positive === 1 ? 'praises' : 'praise'} their ${topic} and ${a.negative} ${a.negative === 1 ? 'complains' : 'complain'} about it, out of ${a.mentions} that mention it`,
];

/**
 * Below this many reviews an aspect is never called "consistent": three positive reviews out of three
 * say little about the next customer (the report says only what the data supports).
 */
export const CONSISTENT_MIN = 10;

function counts(a: AspectInsight, topic: string, index: number): string {
  if (a.positive === a.mentions)
    return a.mentions === 1
      ? `the one review that mentions ${topic} is positive`
      : `all ${a.mentions} reviews that mention ${topic} are positive`;
  if (a.negative === a.mentions)
    return a.mentions === 1
      ? `the one review that mentions ${topic} is negative`
      : `all ${a.mentions} reviews that mention ${topic} are negative`;
  const form = COUNT_FORMS[index % COUNT_FORMS.length] ?? COUNT_FORMS[0];
  return form ? form(a, topic) : '';
}

function quote(a: AspectInsight, polarity: 'positive' | 'negative'): string | undefined {
  const h = a.highlights.find((x) => x.polarity === polarity);
  return h ? `"${h.quote.trim()}"` : undefined;
}

/** A question answered by yes or no ("Are they on time?"), as against "How soon can they come out?". */
function isYesNo(question: string): boolean {
  return /^(are|is|do|does|did|can|could|will|would|should|have|has)\b/i.test(question.trim());
}

/** The counts sentence of an aspect with enough reviews, its topic, and how the question is put. */
interface Answering {
  a: AspectInsight;
  topic: string;
  /** The counts, said in words (`counts`). */
  c: string;
  /** A yes/no question gets a yes; any other ("How soon ...?") gets the verdict on the aspect itself. */
  yesNo: boolean;
  /** Fewer reviews than it takes to call anything consistent. */
  few: boolean;
}

/** Mostly praise: "Yes, consistently", "Mostly yes", with a typical comment. */
function praisedAnswer({ a, topic, c, yesNo, few }: Answering): string | undefined {
  const share = a.positive / a.mentions;
  const good = quote(a, 'positive');
  if (share >= 0.9) {
    const consistently = few
      ? yesNo
        ? 'So far, yes'
        : `So far reviewers are positive about ${topic}`
      : yesNo
        ? 'Yes, consistently'
        : `Reviewers are consistently positive about ${topic}`;
    return `${consistently}: ${c}.${good ? ` A typical comment: ${good}` : ''}`;
  }
  if (share < 0.75) return undefined;
  const mostly = yesNo ? 'Mostly yes' : `Reviewers are mostly positive about ${topic}`;
  return `${mostly}: ${c} (${percent(a.positive, a.mentions)} positive).${good ? ` One reviewer wrote: ${good}` : ''}`;
}

/** Mostly complaints, with one of them. */
function complaintAnswer({ a, c, few }: Answering): string | undefined {
  const share = a.positive / a.mentions;
  const negShare = a.negative / a.mentions;
  const bad = quote(a, 'negative');
  if (negShare >= 0.6)
    return `${few ? 'This is a complaint' : 'This is a frequent complaint'}: ${c}.${bad ? ` One reviewer wrote: ${bad}` : ''}`;
  if (negShare > share) return `More often a complaint than a compliment: ${c}.${bad ? ` For example: ${bad}` : ''}`;
  return undefined;
}

/** Opinions that differ: the verdict, and a comment from each side. */
function mixedAnswer({ a, topic, c, yesNo }: Answering): string {
  const share = a.positive / a.mentions;
  const negShare = a.negative / a.mentions;
  const verdict =
    share >= 0.6
      ? yesNo
        ? 'Usually, but not always'
        : `Reviewers are usually positive about ${topic}, but not always`
      : share > negShare
        ? 'More good than bad, though opinions differ'
        : 'Opinions are split evenly';
  const good = quote(a, 'positive');
  const bad = quote(a, 'negative');
  const sides = good && bad ? ` On the good side: ${good} On the other: ${bad}` : '';
  return `${verdict}: ${c}.${sides}`;
}

/** The verdict in words, chosen from the counts so the sentence can never contradict them. */
function aspectAnswer(a: AspectInsight, index: number, question: string): string {
  const topic = a.label.toLowerCase();
  if (a.mentions < MIN_EVIDENCE) {
    return a.mentions === 0
      ? `Not enough reviews yet: none of the published reviews talks about ${topic}.`
      : `Not enough reviews yet: only ${plural(a.mentions, 'review')} ${a.mentions === 1 ? 'talks' : 'talk'} about ${topic}.`;
  }
  const answering: Answering = { a, topic, c: counts(a, topic, index), yesNo: isYesNo(question), few: a.mentions < CONSISTENT_MIN };
  return praisedAnswer(answering) ?? complaintAnswer(answering) ?? mixedAnswer(answering);
}

/** z for a 95% interval. */
const WILSON_Z = 1.96;

/**
 * Lower bound of the Wilson score interval of the positive share: the share of praise we can be
 * fairly sure of, given how many reviews back it (1 of 1 ranks below 37 of 38).
 */
export function wilsonLowerBound(positive: number, total: number, z = WILSON_Z): number {
  if (total === 0) return 0;
  const p = positive / total;
  const z2 = z * z;
  return (p + z2 / (2 * total) - z * Math.sqrt((p * (1 - p) + z2 / (4 * total)) / total)) / (1 + z2 / total);
}

function whoToAskFor(entities: EntitiesSection): FaqEntry {
  const liked = entities.technicians
    .filter((t) => t.mentions >= MIN_EVIDENCE && t.sentiment.positive > t.sentiment.negative)
    .map((t) => ({ t, rank: wilsonLowerBound(t.sentiment.positive, t.mentions) }))
    .sort((a, b) => b.rank - a.rank || b.t.mentions - a.t.mentions || byCodeUnit(a.t.name, b.t.name))
    .slice(0, 2)
    .map((x) => x.t);
  const question = 'Who should I ask for?';
  if (liked.length === 0) {
    const named = entities.technicians.filter((t) => t.mentions > 0);
    return {
      question,
      answer: `Not enough reviews yet to recommend anyone by name${named.length ? `: ${plural(named.length, 'technician')} ${named.length === 1 ? 'is' : 'are'} mentioned, none in ${MIN_EVIDENCE} or more mostly positive reviews` : ''}.`,
      evidence: {
        review_count: new Set(named.flatMap((t) => t.review_ids)).size,
        review_ids: [...new Set(named.flatMap((t) => t.review_ids))],
      },
    };
  }
  const parts = liked.map(
    (t) =>
      `${t.name} (named in ${plural(t.mentions, 'review')}, ${t.sentiment.positive} positive${t.average_rating !== null ? `, average rating ${t.average_rating.toFixed(1)}` : ''})`,
  );
  const ids = [...new Set(liked.flatMap((t) => t.review_ids))];
  const lead =
    liked.length === 1
      ? 'The most consistently praised technician, by share of positive reviews allowing for how many there are'
      : 'The most consistently praised technicians, ranked by share of positive reviews allowing for how many there are';
  return { question, answer: `${lead}: ${parts.join('; ')}.`, evidence: { review_count: ids.length, review_ids: ids } };
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
  ctx.taxonomy.aspects.forEach((def, index) => {
    const a = aspects.find((x) => x.id === def.id);
    if (!a || !def.question) return;
    const ids = aspectReviewIds.get(a.id) ?? [];
    faq.push({
      question: def.question,
      answer: aspectAnswer(a, index, def.question),
      evidence: { review_count: ids.length, review_ids: ids },
    });
  });
  // People and towns are questions about trades that come to the customer; a restaurant without a
  // catalog of either is not asked them.
  const visiting = ctx.taxonomy.id === 'home-services' || ctx.taxonomy.extends === 'home-services';
  if (visiting || business.technicians.length > 0) faq.push(whoToAskFor(entities));
  if (visiting || business.service_areas.length > 0) faq.push(serviceAreas(entities, business));
  return faq;
}
