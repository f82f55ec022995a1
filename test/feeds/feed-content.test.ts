import { describe, expect, it } from 'vitest';
import {
  FEED_SIZE,
  authorName,
  escapeHtml,
  feedDescription,
  feedLanguage,
  feedTitle,
  isAbsoluteHttpUrl,
  reviewContentHtml,
  reviewContentText,
  reviewTags,
  reviewTitle,
} from '../../src/feeds/feed-content.js';
import { renderAtomFeed } from '../../src/feeds/atom.js';
import { renderJsonFeed } from '../../src/feeds/json-feed.js';
import { FIXTURE_BUSINESS, makeReview, makeView, manyReviews } from '../support/feed-fixture.js';
import { stripInvalidXmlChars } from '../../src/feeds/xml-chars.js';

const base = { id: 'r1', date: '2024-05-01' };

describe('stripInvalidXmlChars', () => {
  it('removes what XML 1.0 §2.2 forbids and keeps tab, LF, CR, emoji and other valid Unicode', () => {
    expect(stripInvalidXmlChars('a\u0000\u0001\u0008\u000B\u000C\u000E\u001Fb')).toBe('ab');
    expect(stripInvalidXmlChars('x\uFFFEy\uFFFFz')).toBe('xyz');
    expect(stripInvalidXmlChars('lone \uD800 high \uDC00 low')).toBe('lone  high  low');
    const valid = '\t\n\r José 技術者 Отличный 🚽✨👍 \uE000\uFFFD \u{10FFFF}';
    expect(stripInvalidXmlChars(valid)).toBe(valid);
  });
});

describe('reviewTitle', () => {
  it('uses the review title on one line, after the stars', () => {
    expect(reviewTitle(makeReview({ ...base, title: '  Great\r\n  work \u0001 ' }))).toBe('★★★★★ Great work');
  });
  it('generates one from the rating and author when the title is null or blank', () => {
    expect(reviewTitle(makeReview({ ...base, rating: 5, title: null }))).toBe('★★★★★ 5/5 from Jane D.');
    expect(reviewTitle(makeReview({ ...base, rating: 1, title: '  ' }))).toBe('★☆☆☆☆ 1/5 from Jane D.');
    expect(reviewTitle(makeReview({ ...base, rating: 3, author: { name: ' ', location: null } }))).toBe(
      '★★★☆☆ 3/5 from Anonymous customer',
    );
  });
});

describe('authorName', () => {
  it('never returns an empty name', () => {
    expect(authorName(makeReview({ ...base, author: { name: '\u0001', location: null } }))).toBe('Anonymous customer');
  });
});

describe('reviewContentText', () => {
  it('keeps the text as written, minus invalid characters', () => {
    expect(reviewContentText(makeReview({ ...base, text: 'a\r\n<b>\u0001' }))).toBe('a\r\n<b>');
  });
  it('says something for a rating-only review', () => {
    expect(reviewContentText(makeReview({ ...base, rating: 3, text: '' }))).toBe('Rated 3 out of 5.');
    expect(reviewContentText(makeReview({ ...base, rating: 3, text: ' \n' }))).toBe('Rated 3 out of 5.');
  });
});

describe('reviewContentHtml', () => {
  it('escapes the text and turns each line break into one <br>', () => {
    const r = makeReview({ ...base, text: `a & b\r\nc\rd\ne <i>'"` });
    expect(reviewContentHtml(r, 'Biz')).toBe('<p>a &amp; b<br>c<br>d<br>e &lt;i&gt;&#39;&quot;</p>');
  });
  it('quotes the owner response, escaped, with its date when known', () => {
    const r = makeReview({ ...base, text: 'ok', response: { text: 'Thanks <3\nBye', date: '2024-05-02' } });
    expect(reviewContentHtml(r, 'A & B')).toBe(
      '<p>ok</p>\n<blockquote><p><strong>Response from A &amp; B, 2024-05-02:</strong></p><p>Thanks &lt;3<br>Bye</p></blockquote>',
    );
    const undated = makeReview({ ...base, response: { text: 'Thanks', date: null } });
    expect(reviewContentHtml(undated, 'Biz')).toContain('<strong>Response from Biz:</strong>');
    const blank = makeReview({ ...base, response: { text: ' ', date: null } });
    expect(reviewContentHtml(blank, 'Biz')).not.toContain('blockquote');
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});

describe('reviewTags', () => {
  it('lists the rating, then mentioned technicians, services and areas, once each', () => {
    const r = makeReview({
      ...base,
      rating: 4,
      mentions: {
        technicians: [{ id: 'jose', name: 'José Ortiz' }],
        services: [{ id: 'ac', name: 'AC Repair' }],
        service_areas: [
          { id: 'p', name: 'Peñasco Heights' },
          { id: 'p2', name: 'Peñasco Heights' },
        ],
      },
    });
    expect(reviewTags(r)).toEqual(['rating:4', 'José Ortiz', 'AC Repair', 'Peñasco Heights']);
  });
});

describe('feed metadata', () => {
  it('describes the aggregate', () => {
    expect(feedDescription(makeView([]))).toBe('Verified customer reviews of Brightline Plumbing & Air.');
    expect(feedDescription(makeView([makeReview({ ...base, rating: 4 })]))).toBe(
      'Verified customer reviews of Brightline Plumbing & Air: 4 out of 5 from 1 review.',
    );
  });
  it('says so in both feeds while the demo or sample reviews are served, and only then', () => {
    const one = [makeReview({ ...base, rating: 4 })];
    const demo = makeView(one, { ...FIXTURE_BUSINESS, demo: true });
    const samples = makeView([
      ...one,
      makeReview({ id: 'sample-1', date: '2024-05-02' }),
      makeReview({ id: 'sample-2', date: '2024-05-03' }),
    ]);
    const own = makeView(one);
    expect(feedTitle(demo)).toBe('Brightline Plumbing & Air reviews (demo: an invented business)');
    expect(feedDescription(demo)).toMatch(/^Demo: an invented business and made-up reviews/);
    expect(feedTitle(samples)).toBe('Brightline Plumbing & Air reviews (with sample reviews)');
    expect(feedDescription(samples)).toMatch(/^2 of these reviews are invented samples/);
    expect(feedTitle(own)).toBe('Brightline Plumbing & Air reviews');
    expect(feedDescription(own)).not.toMatch(/demo|sample|invented/i);
    // As the two formats carry them: JSON Feed title and description, Atom title and subtitle.
    const json = JSON.parse(renderJsonFeed(demo)) as { title: string; description: string };
    expect(json.title).toContain('(demo: an invented business)');
    expect(json.description).toMatch(/^Demo: /);
    const atom = renderAtomFeed(demo);
    expect(atom).toContain('<title type="text">Brightline Plumbing &amp; Air reviews (demo: an invented business)</title>');
    expect(atom).toMatch(/<subtitle type="text">Demo: an invented business/);
    expect(renderAtomFeed(own)).not.toMatch(/demo/i);
  });
  it('picks the most common language, ties alphabetically, en by default', () => {
    const langs = (...l: (string | null)[]) => l.map((language, i) => makeReview({ id: `r${i}`, date: '2024-01-01', language }));
    expect(feedLanguage(langs('fr', 'de', 'fr', null))).toBe('fr');
    expect(feedLanguage(langs('fr', 'de'))).toBe('de');
    expect(feedLanguage(langs(null))).toBe('en');
    expect(feedLanguage([])).toBe('en');
  });
  it('caps the feed at 50 reviews', () => {
    expect(FEED_SIZE).toBe(50);
    expect(makeView(manyReviews(3)).reviews).toHaveLength(3);
  });
  it('accepts only absolute http(s) URLs as links', () => {
    expect(isAbsoluteHttpUrl('https://x.example/')).toBe(true);
    expect(isAbsoluteHttpUrl('/relative')).toBe(false);
    expect(isAbsoluteHttpUrl('mailto:a@b.c')).toBe(false);
  });
});
