import type { MentionMatcher } from './mentions.js';
import type { Review, StoredReview } from './review.js';

/** The public record of a stored review (contract §2): fixed key order, derived mentions. */
export function toPublicReview(r: StoredReview, matcher: MentionMatcher): Review {
  return {
    id: r.id,
    date: r.date,
    rating: r.rating,
    title: r.title,
    text: r.text,
    language: r.language,
    author: { name: r.author.name, location: r.author.location },
    source: { platform: r.source.platform, url: r.source.url },
    verified: true,
    mentions: matcher.resolve(r.title, r.text, r.mention_tags),
    response: r.response === null ? null : { text: r.response.text, date: r.response.date },
    updated_at: r.updated_at,
  };
}
