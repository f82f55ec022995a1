import { z } from 'zod';
import { ReviewSchema } from '../domain/review.js';

/**
 * The JSON Feed 1.1 document we publish (https://jsonfeed.org/version/1.1), narrowed to the members we
 * emit (contract §4). Used for the renderer's types and by anyone documenting GET /api/feed.json.
 */

/** JSON Feed 1.1 "authors" entry; 1.1 deprecates the singular `author`, which we never emit. */
export const JsonFeedAuthorSchema = z.object({
  name: z.string(),
  url: z.string().optional(),
});

/** JSON Feed 1.1 "hubs": how to subscribe to real-time notifications (WebSub, contract §6). */
export const JsonFeedHubSchema = z.object({
  type: z.string(),
  url: z.string(),
});

export const JsonFeedItemSchema = z.object({
  id: z.string().min(1),
  url: z.string(),
  title: z.string(),
  content_text: z.string(),
  content_html: z.string(),
  date_published: z.string(),
  date_modified: z.string(),
  authors: z.array(JsonFeedAuthorSchema),
  tags: z.array(z.string()),
  language: z.string().optional(),
  /** The review record itself, under an extension key (JSON Feed 1.1 "Extensions": a leading underscore). */
  _review: ReviewSchema,
});
export type JsonFeedItem = z.infer<typeof JsonFeedItemSchema>;

export const JsonFeedSchema = z
  .object({
    version: z.literal('https://jsonfeed.org/version/1.1'),
    title: z.string(),
    home_page_url: z.string(),
    feed_url: z.string(),
    description: z.string(),
    language: z.string(),
    authors: z.array(JsonFeedAuthorSchema),
    hubs: z.array(JsonFeedHubSchema),
    items: z.array(JsonFeedItemSchema),
  })
  .meta({ id: 'JsonFeed' });
export type JsonFeed = z.infer<typeof JsonFeedSchema>;
