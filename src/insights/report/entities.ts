import type { Business } from '../../domain/business.js';
import type { Mentions } from '../../domain/review.js';
import type { EntitiesSection, EntityInsight } from '../schema.js';
import { byCodeUnit, addPolarity, emptyCounts, polarityOf, reviewPolarity, round, type ReportContext } from './context.js';

type Kind = keyof Mentions;
interface CatalogEntry {
  id: string;
  name: string;
  aliases: string[];
}

const TOP_ASPECTS = 3;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whole-word, case-insensitive, Unicode letters as word characters (contract §2, mentions). */
function namePattern(entry: CatalogEntry): RegExp {
  const names = [entry.name, ...entry.aliases]
    .filter(Boolean)
    .map(escapeRegExp)
    .sort((a, b) => b.length - a.length);
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${names.join('|')})(?![\\p{L}\\p{N}_])`, 'iu');
}

function buildKind(ctx: ReportContext, kind: Kind, catalog: readonly CatalogEntry[]): EntityInsight[] {
  // One pass to bucket reviews by the entities they mention, so each entity reads only its own reviews.
  const byEntity = new Map<string, number[]>();
  ctx.items.forEach(({ review }, item) => {
    for (const m of review.mentions[kind]) {
      const list = byEntity.get(m.id);
      if (list) {
        if (list[list.length - 1] !== item) list.push(item);
      } else byEntity.set(m.id, [item]);
    }
  });
  const out: EntityInsight[] = [];
  for (const entry of catalog) {
    const pattern = namePattern(entry);
    const sentiment = emptyCounts();
    const aspectCounts = new Map<string, number>();
    const reviewIds: string[] = [];
    let ratingSum = 0;
    for (const item of byEntity.get(entry.id) ?? []) {
      const it = ctx.items[item];
      if (!it) continue;
      const { review, analysis } = it;
      reviewIds.push(review.id);
      ratingSum += review.rating;
      // The sentences that name the entity speak about it; when none does (a tagged review), the whole review.
      const naming = analysis.sentences.filter((s) => pattern.test(review.text.slice(s.start, s.end)));
      const fromText = naming.length > 0 ? polarityOf(naming.reduce((sum, s) => sum + s.score, 0)) : 'neutral';
      addPolarity(sentiment, fromText !== 'neutral' ? fromText : reviewPolarity(review, analysis));
      const aspects = new Set<string>();
      for (const s of naming.length > 0 ? naming : analysis.sentences) for (const a of s.aspects) aspects.add(a.aspect);
      for (const a of aspects) aspectCounts.set(a, (aspectCounts.get(a) ?? 0) + 1);
    }
    const { mentions, positive, neutral, negative, score } = sentiment;
    out.push({
      id: entry.id,
      name: entry.name,
      mentions,
      average_rating: mentions === 0 ? null : round(ratingSum / mentions),
      sentiment: { positive, neutral, negative, score },
      top_aspects: [...aspectCounts]
        .sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))
        .slice(0, TOP_ASPECTS)
        .map(([id]) => id),
      review_ids: reviewIds,
    });
  }
  return out.sort((a, b) => b.mentions - a.mentions || byCodeUnit(a.name, b.name));
}

/** People named as staff who are not in the catalog (by name, alias or first name). */
function staffCandidates(ctx: ReportContext, business: Business): EntitiesSection['staff_candidates'] {
  const known = new Set<string>();
  for (const t of business.technicians) {
    for (const n of [t.name, ...t.aliases]) {
      known.add(n.toLowerCase());
      known.add(n.split(/\s+/)[0]?.toLowerCase() ?? '');
    }
  }
  const byName = new Map<string, { name: string; review_ids: string[]; evidence: string[]; last: string }>();
  for (const { review, analysis } of ctx.items) {
    for (const s of analysis.staff) {
      const key = s.name.toLowerCase();
      if (known.has(key) || known.has(key.split(/\s+/)[0] ?? '')) continue;
      const entry = byName.get(key) ?? { name: s.name, review_ids: [], evidence: [], last: '' };
      // A review names the person once for counting, however many sentences do.
      if (entry.last !== review.id) {
        entry.last = review.id;
        entry.review_ids.push(review.id);
        if (entry.evidence.length < 3) entry.evidence.push(review.text.slice(s.start, s.end));
      }
      byName.set(key, entry);
    }
  }
  return [...byName.values()]
    .map((e) => ({ name: e.name, mentions: e.review_ids.length, review_ids: e.review_ids, evidence: e.evidence }))
    .sort((a, b) => b.mentions - a.mentions || byCodeUnit(a.name, b.name));
}

export function buildEntities(ctx: ReportContext, business: Business): EntitiesSection {
  return {
    technicians: buildKind(ctx, 'technicians', business.technicians),
    services: buildKind(ctx, 'services', business.services),
    service_areas: buildKind(ctx, 'service_areas', business.service_areas),
    staff_candidates: staffCandidates(ctx, business),
  };
}
