import { RecordBuilder, type MappedRecord } from './mapped-record.js';
import { field, isObject, type JsonProfile } from './profile.js';

/**
 * Yelp Fusion's reviews response (`GET /v3/businesses/{id}/reviews`): `{ reviews: [{ id, url, text,
 * rating, time_created, user: { id, profile_url, image_url, name } }], total, possible_languages }`.
 * `time_created` is the business's local time ("2024-03-25 19:32:11"), so its date is the review's day.
 * Yelp's API gives an excerpt of each text, which is what is published; the reviewer's photo and
 * profile stay Yelp's.
 */
export function fromYelpReview(review: unknown): MappedRecord {
  if (!isObject(review)) return { value: {}, problems: [{ path: '(record)', message: 'is not a Yelp review object' }] };
  const user = field(review, 'user');
  const b = new RecordBuilder('yelp', field(review, 'url'))
    .id(field(review, 'id'))
    .rating('rating', field(review, 'rating'))
    .date('time_created', field(review, 'time_created'))
    .text(field(review, 'text'))
    .author(field(user, 'name'), 'A Yelp user');
  return b.done();
}

const looksLikeYelpReview = (x: unknown) => isObject(x) && 'time_created' in x && ('rating' in x || 'user' in x);

export const yelpFusion: JsonProfile = {
  id: 'yelp-fusion',
  label: 'a Yelp Fusion reviews response',
  reviewsOf(doc) {
    const reviews = Array.isArray(doc) ? doc : field(doc, 'reviews');
    return Array.isArray(reviews) && reviews.length > 0 && looksLikeYelpReview(reviews[0]) ? reviews : null;
  },
  documentKeys: ['reviews', 'total', 'possible_languages'],
  // `user` is read for its name; its id, profile and photo are dropped on purpose.
  reviewKeys: ['id', 'url', 'text', 'rating', 'time_created', 'user'],
  map: fromYelpReview,
};
