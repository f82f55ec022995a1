import type { AspectInsight, Summary } from '../schema.js';
import { byCodeUnit, listing, MIN_EVIDENCE, percent, plural, round, type ReportContext } from './context.js';

const MAX_LISTED = 3;

/** A strength is clearly praised: enough reviews, and at most a quarter of them negative. */
export function isStrength(a: AspectInsight): boolean {
  return a.mentions >= MIN_EVIDENCE && a.positive > a.negative && a.score >= 0.5;
}

/** A weakness draws a real share of complaints: more bad than good, or two or more and 30% negative. */
export function isWeakness(a: AspectInsight): boolean {
  return a.mentions >= MIN_EVIDENCE && (a.negative > a.positive || (a.negative >= 2 && a.negative / a.mentions >= 0.3));
}

function label(a: AspectInsight): string {
  return a.label.toLowerCase();
}

function describe(a: AspectInsight, side: 'positive' | 'negative'): string {
  return `${label(a)} (${a[side]} of ${a.mentions} ${side})`;
}

/** The headline: the top strength and weakness, or whichever there is, or the rating alone. */
function headlineOf(
  top: readonly AspectInsight[],
  low: readonly AspectInsight[],
  praised: readonly AspectInsight[],
  average: number,
): string {
  const s0 = top[0];
  const w0 = low[0];
  if (s0 && w0) return `Strong on ${label(s0)}, weaker on ${label(w0)}`;
  if (s0 && average >= 4.5) return `Highly rated, with ${label(praised[0] ?? s0)} praised most often`;
  if (s0) return `Customers single out ${listing(top.slice(0, 2).map(label))}`;
  if (w0) return `Reviewers' most common complaint: ${label(w0)}`;
  return average >= 4 ? 'Well rated, without one standout theme yet' : 'Mixed reviews, without one clear theme yet';
}

/** An aspect whose recent reviews read clearly better or worse than the earlier ones, if one does. */
function moving(aspects: readonly AspectInsight[]): AspectInsight | undefined {
  return aspects.find(
    (a) =>
      a.trend.recent.mentions >= MIN_EVIDENCE &&
      a.trend.previous.mentions >= MIN_EVIDENCE &&
      Math.abs(a.trend.recent.score - a.trend.previous.score) >= 0.4,
  );
}

export function buildSummary(ctx: ReportContext, aspects: readonly AspectInsight[]): Summary {
  const n = ctx.items.length;
  const period = { from: ctx.items[n - 1]?.review.date ?? null, to: ctx.items[0]?.review.date ?? null };
  if (n < MIN_EVIDENCE) {
    return {
      headline: 'Not enough reviews yet',
      text:
        n === 0
          ? 'There are no published reviews yet, so there is nothing to summarise.'
          : `Only ${plural(n, 'published review')} so far: not enough reviews yet to say what customers consistently like or dislike.`,
      strengths: [],
      weaknesses: [],
      period,
    };
  }
  const average = round(ctx.items.reduce((s, i) => s + i.review.rating, 0) / n, 1);
  const strengths = aspects.filter(isStrength).sort((a, b) => b.positive - a.positive || b.score - a.score || byCodeUnit(a.id, b.id));
  const weaknesses = aspects.filter(isWeakness).sort((a, b) => b.negative - a.negative || a.score - b.score || byCodeUnit(a.id, b.id));
  const top = strengths.slice(0, MAX_LISTED);
  // "Most often" is a claim about counts: the list is ranked by positive reviews, among the aspects
  // more often praised than criticised, so no aspect with more praise is left out of it. An aspect that
  // draws a real share of complaints is named among the complaints only: one summary never both
  // praises and criticises the same aspect.
  const praised = aspects
    .filter((a) => a.mentions >= MIN_EVIDENCE && a.positive > a.negative && !isWeakness(a))
    .sort((a, b) => b.positive - a.positive || b.score - a.score || byCodeUnit(a.id, b.id))
    .slice(0, MAX_LISTED);
  const low = weaknesses.slice(0, MAX_LISTED);

  const headline = headlineOf(top, low, praised, average);
  const w0 = low[0];

  // One sentence per claim, in words and counts a reader can check against the reviews.
  const sentences = [
    `${plural(n, 'published review')} between ${period.from} and ${period.to}.`,
    `Their average rating is ${average.toFixed(1)} out of 5.`,
  ];
  if (praised.length > 0) sentences.push(`Reviewers most often praise ${listing(praised.map((a) => describe(a, 'positive')))}.`);
  if (low.length > 0) {
    sentences.push(
      low.length === 1 && w0
        ? `The main complaint is about ${describe(w0, 'negative')}.`
        : `Complaints concentrate on ${listing(low.map((a) => describe(a, 'negative')))}.`,
    );
  }
  if (praised.length === 0 && low.length === 0)
    sentences.push('No aspect is mentioned often enough yet to call it a strength or a weakness.');
  const changed = moving(aspects);
  if (changed) {
    const { recent, previous } = changed.trend;
    const better = recent.score > previous.score;
    sentences.push(
      `Recent reviews are ${better ? 'more' : 'less'} positive about ${label(changed)} than earlier ones (${percent(recent.positive, recent.mentions)} positive, against ${percent(previous.positive, previous.mentions)} before).`,
    );
  }
  return {
    headline,
    text: sentences.join(' '),
    strengths: top.map((a) => a.id),
    weaknesses: low.map((a) => a.id),
    period,
  };
}
