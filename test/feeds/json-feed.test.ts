import { extractFromJson } from '@extractus/feed-extractor';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import jsonFeedSchema from 'jsonfeed-schema/schema-v1.1.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { createServiceUrls } from '../../src/domain/urls.js';
import { JsonFeedSchema } from '../../src/feeds/json-feed-schema.js';
import { JSON_FEED_MEDIA_TYPE, buildJsonFeed, renderJsonFeed } from '../../src/feeds/json-feed.js';
import { asHtmlSeesIt, decodeHtml, htmlReviewText } from '../support/xml.js';
import {
  BASE_URL,
  FIXTURE_BUSINESS,
  HOSTILE_TEXT,
  HOSTILE_TITLE,
  goldenView,
  makeReview,
  makeView,
  manyReviews,
} from '../support/feed-fixture.js';

// ajv-formats is CommonJS with `exports.default`: under NodeNext the default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validateJsonFeed = ajv.compile(jsonFeedSchema);

function parse(view = goldenView()): Record<string, unknown> & { items: Record<string, unknown>[] } {
  return JSON.parse(renderJsonFeed(view)) as Record<string, unknown> & { items: Record<string, unknown>[] };
}

describe('renderJsonFeed', () => {
  it('validates against the jsonfeed-schema 1.1 schema and our own zod schema', () => {
    for (const view of [goldenView(), makeView(manyReviews(60)), makeView([])]) {
      const doc = parse(view);
      expect(validateJsonFeed(doc), JSON.stringify(validateJsonFeed.errors)).toBe(true);
      expect(() => JsonFeedSchema.parse(doc)).not.toThrow();
    }
  });

  it('is JSON Feed 1.1 with version first, hubs, feed_url, home_page_url, authors and language', () => {
    const doc = parse();
    expect(Object.keys(doc)[0]).toBe('version');
    expect(doc).toMatchObject({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Brightline Plumbing & Air reviews',
      home_page_url: 'https://brightline.example.com/',
      feed_url: `${BASE_URL}/api/feed.json`,
      hubs: [{ type: 'WebSub', url: `${BASE_URL}/api/websub/hub` }],
      authors: [{ name: 'Brightline Plumbing & Air', url: 'https://brightline.example.com/' }],
      language: 'en',
    });
    expect(typeof doc.description).toBe('string');
    expect(JSON_FEED_MEDIA_TYPE).toBe('application/feed+json');
  });

  it('never uses the deprecated author key (JSON Feed 1.1 §authors)', () => {
    const doc = parse(makeView(manyReviews(60)));
    expect(doc).not.toHaveProperty('author');
    for (const item of doc.items) expect(item).not.toHaveProperty('author');
  });

  it('holds exactly the 50 newest reviews, newest first, with unique string ids', () => {
    const view = makeView(manyReviews(60));
    const doc = parse(view);
    expect(doc.items).toHaveLength(50);
    expect(doc.items.map((i) => i.id)).toEqual(view.reviews.slice(0, 50).map((r) => r.id));
    expect(doc.items.map((i) => i.id)).toContain('rv-0059');
    expect(doc.items.map((i) => i.id)).not.toContain('rv-0009');
    const ids = doc.items.map((i) => i.id);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every item the permalink, dates, authors, tags and the review record as _review', () => {
    const view = goldenView();
    const doc = parse(view);
    doc.items.forEach((item, i) => {
      const review = view.reviews[i]!;
      expect(item._review).toStrictEqual(JSON.parse(JSON.stringify(review)));
      expect(Object.keys(item._review as object)).toEqual(Object.keys(review));
      expect(item.url).toBe(`${BASE_URL}/reviews/${review.id}`);
      expect(item.date_published).toBe(`${review.date}T00:00:00Z`);
      expect(item.date_modified).toBe(review.updated_at);
      expect(item.authors).toEqual([{ name: review.author.name }]);
      expect(item.tags).toContain(`rating:${review.rating}`);
    });
    expect(doc.items[0]!.tags).toEqual(['rating:5', 'Mike Alvarez', 'Water Heater Service', 'Oak Park']);
  });

  it('generates a title and a content text for a rating-only review', () => {
    const item = parse().items.find((i) => i.id === 'rv-0002')!;
    expect(item.title).toBe('★★★★☆ 4/5 from Sam K.');
    expect(item.content_text).toBe('Rated 4 out of 5.');
    expect(item.content_html).toBe('<p>Rated 4 out of 5.</p>');
  });

  it('escapes &<>"\' in content_html and quotes the owner response', () => {
    const item = parse().items.find((i) => i.id === 'rv-0003')!;
    expect(item.content_html).toContain('<blockquote>');
    expect(item.content_html).toContain('Thanks, Jane! &lt;3');
    const hostile = parse().items.find((i) => i.id === 'rv-0001')!;
    const html = String(hostile.content_html);
    expect(html).toContain('Tom &amp; Jerry&#39;s &quot;best&quot; &lt;b&gt;plumber&lt;/b&gt;: 5 &gt; 3 &amp; 2 &lt; 4');
    expect(html).not.toMatch(/<script|<b>|<\/b>/);
    expect(html).not.toContain('\u0001');
    // Only our own markup is live: every < that remains opens one of our tags.
    expect(html.match(/<(?!\/?(p|br|blockquote|strong)>)/g)).toBeNull();
  });

  it('round-trips hostile text: markup, entities, ]]>, emoji, CR/LF; only U+0001 is dropped', () => {
    const item = parse().items.find((i) => i.id === 'rv-0001')!;
    const expected = HOSTILE_TEXT.replace('\u0001', '');
    expect(item.content_text).toBe(expected);
    expect(item.title).toBe(`★★☆☆☆ ${HOSTILE_TITLE}`);
    expect(htmlReviewText(String(item.content_html))).toBe(asHtmlSeesIt(HOSTILE_TEXT));
    expect(decodeHtml('&lt;b&gt;')).toBe('<b>');
    expect((item._review as { text: string }).text).toBe(HOSTILE_TEXT);
  });

  it('falls back to the base URL when the business has no usable URL', () => {
    for (const url of [null, 'not a url', 'javascript:alert(1)']) {
      const doc = parse(makeView([], { ...FIXTURE_BUSINESS, url }));
      expect(doc.home_page_url).toBe(BASE_URL);
      expect(doc.authors).toEqual([{ name: 'Brightline Plumbing & Air', url: BASE_URL }]);
    }
  });

  it('takes the language from the reviews when most of them share one', () => {
    const reviews = ['a', 'b', 'c'].map((id) => makeReview({ id, date: '2024-01-02', language: 'de' }));
    expect(parse(makeView([...reviews, makeReview({ id: 'd', date: '2024-01-01' })])).language).toBe('de');
    expect(parse(makeView([makeReview({ id: 'x', date: '2024-01-01', language: null })])).language).toBe('en');
  });

  it('follows the URLs of the view (BASE_URL)', () => {
    const view = { ...goldenView(), urls: createServiceUrls('http://127.0.0.1:8080/') };
    const doc = parse(view);
    expect(doc.feed_url).toBe('http://127.0.0.1:8080/api/feed.json');
    expect(doc.items[0]!.url).toBe('http://127.0.0.1:8080/reviews/rv-0003');
  });

  it('is pure: the same view gives the same bytes and is not modified', () => {
    const view = makeView(manyReviews(60));
    const before = JSON.stringify(view);
    expect(renderJsonFeed(view)).toBe(renderJsonFeed(view));
    expect(JSON.stringify(view)).toBe(before);
    expect(renderJsonFeed(view)).toBe(`${JSON.stringify(buildJsonFeed(view), null, 2)}\n`);
  });

  it('parses with @extractus/feed-extractor', () => {
    const f = extractFromJson(parse(makeView(manyReviews(60))), { normalization: true });
    expect(f.entries).toHaveLength(50);
  });
});
