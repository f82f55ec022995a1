import type { AspectInsight, Polarity } from '../schema.js';
import { addPolarity, emptyCounts, type Counts, type ReportContext } from './context.js';

const RECENT_DAYS = 180;
const MAX_HIGHLIGHTS = 3;
const MAX_QUOTE = 240;

function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

interface Candidate {
  review_id: string;
  quote: string;
  polarity: Polarity;
  strength: number;
  order: number;
}

/** Picks quotes that show both sides when both exist, strongest first, newest first on ties. */
function pickHighlights(candidates: Candidate[]): AspectInsight['highlights'] {
  const sorted = [...candidates].sort((a, b) => b.strength - a.strength || a.order - b.order);
  const chosen: Candidate[] = [];
  const seenReviews = new Set<string>();
  for (const wanted of ['positive', 'negative', undefined] as const) {
    for (const c of sorted) {
      if (chosen.length >= MAX_HIGHLIGHTS) break;
      if (seenReviews.has(c.review_id) || (wanted && c.polarity !== wanted)) continue;
      chosen.push(c);
      seenReviews.add(c.review_id);
      if (wanted) break;
    }
  }
  return chosen.map(({ review_id, quote, polarity }) => ({ review_id, quote, polarity }));
}

export function buildAspects(ctx: ReportContext): AspectInsight[] {
  const newest = ctx.items[0]?.review.date;
  const cutoff = newest ? daysBefore(newest, RECENT_DAYS) : undefined;
  const oldest = ctx.items[ctx.items.length - 1]?.review.date ?? null;
  return ctx.taxonomy.aspects.map((aspect) => {
    const total = emptyCounts();
    const recent: Counts = emptyCounts();
    const previous: Counts = emptyCounts();
    const candidates: Candidate[] = [];
    ctx.items.forEach(({ review, analysis }, order) => {
      const verdict = analysis.aspects.get(aspect.id);
      if (!verdict) return;
      addPolarity(total, verdict.polarity);
      addPolarity(cutoff !== undefined && review.date > cutoff ? recent : previous, verdict.polarity);
      for (const s of analysis.sentences) {
        const a = s.aspects.find((x) => x.aspect === aspect.id);
        if (!a || a.polarity !== verdict.polarity || s.end - s.start > MAX_QUOTE) continue;
        candidates.push({
          review_id: review.id,
          quote: review.text.slice(s.start, s.end),
          polarity: a.polarity,
          strength: Math.abs(a.score),
          order,
        });
      }
    });
    return {
      id: aspect.id,
      label: aspect.label,
      ...total,
      trend: {
        recent: { ...recent, from: cutoff ? daysBefore(cutoff, -1) : null, to: newest ?? null },
        previous: { ...previous, from: oldest, to: cutoff ?? null },
      },
      highlights: pickHighlights(candidates),
    };
  });
}
