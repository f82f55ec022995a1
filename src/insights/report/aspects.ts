import type { AspectInsight, Polarity } from '../schema.js';
import { addPolarity, emptyCounts, type Counts, type ReportContext } from './context.js';

const RECENT_DAYS = 180;
const MAX_HIGHLIGHTS = 3;
/** Candidates kept per polarity: spares for the near-duplicates that are skipped. */
const MAX_CANDIDATES = 8;
/** Word overlap (Jaccard) from which two quotes count as the same one. */
const NEAR_DUPLICATE = 0.6;
const MAX_QUOTE = 240;
const SENTENCE_BAND = 0.3;

function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/** A quotable sentence; the quote itself is cut only for the few that are chosen. */
interface Candidate {
  item: number;
  start: number;
  end: number;
  polarity: Polarity;
  strength: number;
  /** The quote's text, normalised: one quote is shown once per aspect, however many reviews repeat it. */
  key: string;
}

/** Keeps the best few candidates per polarity: strongest first, then newest (lowest item index). */
function offer(list: Candidate[], c: Candidate): void {
  const same = list.findIndex((x) => x.key === c.key);
  if (same >= 0) {
    const prev = list[same];
    if (prev && (prev.strength > c.strength || (prev.strength === c.strength && prev.item <= c.item))) return;
    list.splice(same, 1);
  }
  let at = list.length;
  while (at > 0) {
    const prev = list[at - 1];
    if (!prev || prev.strength > c.strength || (prev.strength === c.strength && prev.item <= c.item)) break;
    at--;
  }
  if (at >= MAX_CANDIDATES) return;
  list.splice(at, 0, c);
  if (list.length > MAX_CANDIDATES) list.pop();
}

interface Acc {
  total: Counts;
  recent: Counts;
  previous: Counts;
  best: Record<Polarity, Candidate[]>;
  reviewIds: string[];
}

/** Jaccard similarity of two word sets. */
function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 1 : both / union;
}

/** Picks quotes that show both sides when both exist, then fills with the strongest others. */
function pickHighlights(ctx: ReportContext, best: Acc['best']): AspectInsight['highlights'] {
  const chosen: Candidate[] = [];
  const used = new Set<number>();
  const words: Array<Set<string>> = [];
  const take = (c: Candidate | undefined): void => {
    if (!c || chosen.length >= MAX_HIGHLIGHTS || used.has(c.item)) return;
    // Not the same quote twice, nor one that only swaps a name or a word ("The tech was ..." / "The technician was ...").
    const own = new Set(c.key.match(/[\p{L}\p{N}']+/gu) ?? []);
    if (words.some((w) => similarity(w, own) >= NEAR_DUPLICATE)) return;
    chosen.push(c);
    used.add(c.item);
    words.push(own);
  };
  take(best.positive[0]);
  take(best.negative[0]);
  const rest = [...best.positive, ...best.negative, ...best.neutral].sort((a, b) => b.strength - a.strength || a.item - b.item);
  for (const c of rest) take(c);
  return chosen.map((c) => {
    const review = ctx.items[c.item]?.review;
    return { review_id: review?.id ?? '', quote: review?.text.slice(c.start, c.end) ?? '', polarity: c.polarity };
  });
}

/** The sentence's offsets without surrounding white space, so a quote is an exact, trimmed substring. */
export function trimmed(text: string, start: number, end: number): { start: number; end: number } {
  while (start < end && /\s/.test(text[start] ?? '')) start++;
  while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
  return { start, end };
}

/** A sentence whose overall opinion points the other way is no example of this polarity. */
function opposes(polarity: Polarity, sentenceScore: number): boolean {
  return (polarity === 'positive' && sentenceScore < -SENTENCE_BAND) || (polarity === 'negative' && sentenceScore > SENTENCE_BAND);
}

/** One pass over the reviews for every aspect (a recompute at 10k reviews must stay well under 1 s). */
export function buildAspects(ctx: ReportContext): { aspects: AspectInsight[]; reviewIds: Map<string, string[]> } {
  const newest = ctx.items[0]?.review.date;
  const cutoff = newest ? daysBefore(newest, RECENT_DAYS) : undefined;
  const oldest = ctx.items[ctx.items.length - 1]?.review.date ?? null;
  const acc = new Map<string, Acc>();
  for (const a of ctx.taxonomy.aspects) {
    acc.set(a.id, {
      total: emptyCounts(),
      recent: emptyCounts(),
      previous: emptyCounts(),
      best: { positive: [], neutral: [], negative: [] },
      reviewIds: [],
    });
  }
  ctx.items.forEach(({ review, analysis }, item) => {
    if (analysis.aspects.size === 0) return;
    const isRecent = cutoff !== undefined && review.date > cutoff;
    for (const [aspect, verdict] of analysis.aspects) {
      const a = acc.get(aspect);
      if (!a) continue;
      addPolarity(a.total, verdict.polarity);
      addPolarity(isRecent ? a.recent : a.previous, verdict.polarity);
      a.reviewIds.push(review.id);
    }
    for (const s of analysis.sentences) {
      if (s.end - s.start > MAX_QUOTE) continue;
      const { start, end } = trimmed(review.text, s.start, s.end);
      if (end <= start) continue;
      // A mixed sentence (praise and complaint side by side) illustrates neither side well.
      const mixed = s.aspects.some((x) => x.polarity === 'positive') && s.aspects.some((x) => x.polarity === 'negative');
      let key: string | undefined;
      for (const o of s.aspects) {
        const a = acc.get(o.aspect);
        // A quote must agree with the review's verdict on the aspect, or it would misrepresent it.
        if (!a || analysis.aspects.get(o.aspect)?.polarity !== o.polarity) continue;
        if (mixed || opposes(o.polarity, s.score)) continue;
        key ??= review.text.slice(start, end).toLowerCase().replace(/\s+/g, ' ');
        offer(a.best[o.polarity], { item, start, end, polarity: o.polarity, strength: Math.abs(o.score), key });
      }
    }
  });
  const reviewIds = new Map<string, string[]>();
  const aspects = ctx.taxonomy.aspects.map((aspect) => {
    const a = acc.get(aspect.id) ?? {
      total: emptyCounts(),
      recent: emptyCounts(),
      previous: emptyCounts(),
      best: { positive: [], neutral: [], negative: [] },
      reviewIds: [],
    };
    reviewIds.set(aspect.id, a.reviewIds);
    return {
      id: aspect.id,
      label: aspect.label,
      ...a.total,
      trend: {
        recent: { ...a.recent, from: cutoff ? daysBefore(cutoff, -1) : null, to: newest ?? null },
        previous: { ...a.previous, from: oldest, to: cutoff ?? null },
      },
      highlights: pickHighlights(ctx, a.best),
    };
  });
  return { aspects, reviewIds };
}
