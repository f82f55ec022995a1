import { extractFromXml } from '@extractus/feed-extractor';
import RssParser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { ATOM_MEDIA_TYPE, renderAtomFeed } from '../../src/feeds/atom.js';
import { renderJsonFeed } from '../../src/feeds/json-feed.js';
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
import { asHtmlSeesIt, htmlReviewText, parseAtom, wellFormedProblems } from '../support/xml.js';

const big = makeView(manyReviews(60));

describe('renderAtomFeed', () => {
  it('is well-formed XML 1.0 (XMLValidator, saxes, character scan) for every fixture', () => {
    for (const view of [goldenView(), big, makeView([])]) {
      const xml = renderAtomFeed(view);
      expect(wellFormedProblems(xml)).toEqual([]);
      expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/);
    }
    expect(ATOM_MEDIA_TYPE).toBe('application/atom+xml; charset=utf-8');
  });

  it('never breaks on characters XML 1.0 cannot carry, anywhere in the data', () => {
    const bad = 'a\u0000b\u0001c\u000Bd\u001Fe\uFFFEf\uD800g\uDC00h';
    const review = makeReview({
      id: 'bad',
      date: '2024-01-01',
      title: bad,
      text: bad,
      author: { name: bad, location: bad },
      mentions: { technicians: [{ id: 't', name: bad }], services: [], service_areas: [] },
      response: { text: bad, date: null },
    });
    const xml = renderAtomFeed(makeView([review], { ...FIXTURE_BUSINESS, name: bad }));
    expect(wellFormedProblems(xml)).toEqual([]);
    const entry = parseAtom(xml).entries[0]!;
    expect(entry.title?.text).toBe('★★★★★ abcdefgh');
    expect(htmlReviewText(entry.content?.text ?? '')).toBe('abcdefgh');
  });

  it('keeps entity-shaped text literal in every element and attribute (xmlbuilder2#117)', () => {
    const odd = 'R&amp;D &nbsp; &#1; &#38; &lt;b&gt;';
    const review = makeReview({
      id: 'odd',
      date: '2024-01-01',
      title: odd,
      author: { name: odd, location: null },
      mentions: { technicians: [{ id: 't', name: odd }], services: [], service_areas: [] },
    });
    const xml = renderAtomFeed(makeView([review], { ...FIXTURE_BUSINESS, name: odd }));
    expect(wellFormedProblems(xml)).toEqual([]);
    const { feed, entries } = parseAtom(xml);
    expect(feed.authorNames).toEqual([odd]);
    expect(entries[0]!.title?.text).toBe(`★★★★★ ${odd}`);
    expect(entries[0]!.authorNames).toEqual([odd]);
    expect(entries[0]!.categories).toEqual(['rating:5', odd]);
  });

  it('parses with rss-parser: 50 entries with unique ids', async () => {
    const f = await new RssParser().parseString(renderAtomFeed(big));
    expect(f.items).toHaveLength(50);
    const ids = f.items.map((i) => (i as { id?: string }).id ?? i.guid);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(50);
  });

  it('parses with @extractus/feed-extractor: 50 entries with unique ids', () => {
    const f = extractFromXml(renderAtomFeed(big), { normalization: true });
    const entries = f.entries ?? [];
    expect(entries).toHaveLength(50);
    expect(new Set(entries.map((e) => e.id)).size).toBe(50);
  });

  it('holds the same 50 newest reviews as the JSON Feed, in the same order', () => {
    const { entries } = parseAtom(renderAtomFeed(big));
    const json = JSON.parse(renderJsonFeed(big)) as { items: { url: string }[] };
    expect(entries.map((e) => e.id)).toEqual(json.items.map((i) => i.url.replace('/reviews/', '/api/reviews/')));
    expect(entries.map((e) => e.id)).toEqual(big.reviews.slice(0, 50).map((r) => big.urls.review(r.id)));
  });

  it('links rel=alternate first, then rel=self (the feed URL), then rel=hub (RFC 4287 §4.2.7, WebSub §4)', () => {
    const { feed } = parseAtom(renderAtomFeed(goldenView()));
    expect(feed.links).toEqual([
      { rel: 'alternate', href: 'https://brightline.example.com/', type: undefined },
      { rel: 'self', href: `${BASE_URL}/feed.xml`, type: 'application/atom+xml' },
      { rel: 'hub', href: `${BASE_URL}/api/websub/hub`, type: undefined },
    ]);
    expect(feed.id).toBe(`${BASE_URL}/feed.xml`);
    expect(feed.title).toEqual({ type: 'text', text: 'Brightline Plumbing & Air reviews' });
    expect(feed.updated).toBe('2024-05-04T09:30:00Z');
    expect(feed.authorNames).toEqual(['Brightline Plumbing & Air']);
  });

  it('falls back to the base URL for the alternate link when the business has no URL', () => {
    const { feed } = parseAtom(renderAtomFeed(makeView([], { ...FIXTURE_BUSINESS, url: null })));
    expect(feed.links[0]).toEqual({ rel: 'alternate', href: BASE_URL, type: undefined });
  });

  it('gives each entry its permalink as id and alternate link, dates, author, categories and content', () => {
    const view = goldenView();
    const { entries } = parseAtom(renderAtomFeed(view));
    expect(entries).toHaveLength(3);
    entries.forEach((entry, i) => {
      const review = view.reviews[i]!;
      const permalink = `${BASE_URL}/api/reviews/${review.id}`;
      expect(entry.id).toBe(permalink);
      expect(entry.links[0]).toEqual({ rel: 'alternate', href: `${BASE_URL}/reviews/${review.id}`, type: 'text/html' });
      expect(entry.links[1]).toEqual({ rel: 'alternate', href: permalink, type: 'application/json' });
      expect(entry.updated).toBe(review.updated_at);
      expect(entry.published).toBe(`${review.date}T00:00:00Z`);
      expect(entry.authorNames).toEqual([review.author.name]);
      expect(entry.categories).toContain(`rating:${review.rating}`);
      expect(entry.content?.type).toBe('html');
    });
    expect(entries[0]!.links[2]).toEqual({ rel: 'via', href: 'https://reviews.example.net/google/rv-0003', type: undefined });
    expect(entries[0]!.content?.text).toContain('<blockquote>');
    expect(entries[1]!.title?.text).toBe('★★★★☆ 4/5 from Sam K.');
  });

  it('round-trips hostile text: markup, entity-shaped text, ]]>, emoji, CR/LF; only U+0001 is dropped', () => {
    const xml = renderAtomFeed(goldenView());
    for (const raw of ['<script', '<b>', '<em>', '&nbsp;', '&#1;']) expect(xml).not.toContain(raw);
    const entry = parseAtom(xml).entries.find((e) => e.id?.endsWith('/rv-0001'))!;
    expect(entry.title?.text).toBe(`★★☆☆☆ ${HOSTILE_TITLE}`);
    expect(entry.authorNames).toEqual(['Renée "R" <Dubois>']);
    // The content is HTML (RFC 4287 §4.1.3.3): after XML decoding it is the escaped review, never live markup.
    const html = entry.content?.text ?? '';
    expect(html).not.toMatch(/<script|<b>/);
    expect(html).toBe(JSON.parse(renderJsonFeed(goldenView())).items[2].content_html);
    // HTML itself turns CRLF and CR into LF, so that is all a reader can get back.
    expect(htmlReviewText(html)).toBe(asHtmlSeesIt(HOSTILE_TEXT));
    expect(htmlReviewText(html)).toContain('&amp; &nbsp; &#1; &#38; &#x41; end.');
  });

  it('is pure: the same view gives the same bytes', () => {
    expect(renderAtomFeed(big)).toBe(renderAtomFeed(big));
  });
});
