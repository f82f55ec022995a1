import { RecordBuilder, type MappedRecord } from './mapped-record.js';
import { field, isObject, type JsonProfile } from './profile.js';

/**
 * A Facebook Page's ratings (Graph API `GET /{page-id}/ratings`): `{ data: [{ created_time,
 * recommendation_type, review_text, rating, reviewer: { name, id }, open_graph_story: { id } }],
 * paging }`. Since 2018 Facebook asks "Do you recommend ...?" instead of stars: a recommendation counts
 * as 5 stars and a non-recommendation as 1, as Podium and Birdeye score them; an older review keeps
 * its `rating`. Without `reviewer` (the Page token lacks the permission) the author is "A Facebook user".
 */
export function fromFacebookRating(rating: unknown): MappedRecord {
  if (!isObject(rating)) return { value: {}, problems: [{ path: '(record)', message: 'is not a Facebook rating object' }] };
  const stars = field(rating, 'rating');
  const kind = field(rating, 'recommendation_type');
  const b = new RecordBuilder('facebook');
  b.id(field(field(rating, 'open_graph_story'), 'id'));
  if (stars !== undefined && stars !== null) b.rating('rating', stars);
  else if (kind === 'positive' || kind === 'negative') b.value.rating = kind === 'positive' ? 5 : 1;
  else
    b.problems.push({
      path: 'recommendation_type',
      message: `recommendation_type ${JSON.stringify(kind ?? null)} is not "positive" or "negative", and there is no rating`,
    });
  b.date('created_time', field(rating, 'created_time'))
    .text(field(rating, 'review_text'))
    .author(field(field(rating, 'reviewer'), 'name'), 'A Facebook user');
  return b.done();
}

const looksLikeFacebookRating = (x: unknown) =>
  isObject(x) && 'created_time' in x && ('recommendation_type' in x || 'rating' in x || 'review_text' in x);

export const facebookRatings: JsonProfile = {
  id: 'facebook-ratings',
  label: "a Facebook Page's ratings",
  reviewsOf(doc) {
    const data = Array.isArray(doc) ? doc : field(doc, 'data');
    return Array.isArray(data) && data.length > 0 && looksLikeFacebookRating(data[0]) ? data : null;
  },
  documentKeys: ['data', 'paging'],
  reviewKeys: ['created_time', 'recommendation_type', 'review_text', 'rating', 'reviewer', 'open_graph_story', 'has_rating', 'has_review'],
  map: fromFacebookRating,
};
