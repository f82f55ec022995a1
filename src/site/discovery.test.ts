import { create } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import type { PublishedView } from '../domain/published-view.js';
import { createServiceUrls } from '../domain/urls.js';
import { FIXTURE_BUSINESS, goldenView, makeReview, makeView } from '../../test/support/feed-fixture.js';
import { SITEMAP_MAX_URLS, sitemapPart, sitemapUrls, sitemapXml } from './discovery.js';

/** The sitemap as xmlbuilder2 wrote it until issue 15 (start-up) removed the library from the server. */
function withXmlbuilder2(view: PublishedView): string {
  const ns = 'http://www.sitemaps.org/schemas/sitemap/0.9';
  const xmlText = (s: string) => s.replace(/&/g, '&amp;');
  const urls = sitemapUrls(view);
  if (urls.length <= SITEMAP_MAX_URLS) {
    const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(ns, 'urlset');
    for (const u of urls) {
      const url = root.ele('url');
      url.ele('loc').txt(xmlText(u.loc));
      if (u.lastmod) url.ele('lastmod').txt(u.lastmod);
    }
    return `${root.end({ prettyPrint: true })}\n`;
  }
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(ns, 'sitemapindex');
  for (let i = 1; i <= Math.ceil(urls.length / SITEMAP_MAX_URLS); i++)
    root
      .ele('sitemap')
      .ele('loc')
      .txt(xmlText(`${view.urls.base}/sitemaps/${i}.xml`));
  return `${root.end({ prettyPrint: true })}\n`;
}

describe('sitemap.xml', () => {
  it('has the bytes xmlbuilder2 wrote, for odd ids and a base URL with markup and entities', () => {
    const odd = makeView(
      ['a&b', '<x>', '"q"', '&amp;', 'é 🚽', 'plain'].map((id, i) => makeReview({ id, date: `2024-01-0${i + 1}` })),
      { ...FIXTURE_BUSINESS, technicians: [{ id: 'r&d <t>', name: 'T', role: null, aliases: [] }] },
    );
    const hostileBase = { ...odd, urls: createServiceUrls('https://x.example/a&amp;b?<c>="d"') };
    for (const view of [goldenView(), odd, hostileBase]) expect(sitemapXml(view)).toBe(withXmlbuilder2(view));
  });

  it('has the bytes xmlbuilder2 wrote for the index of a view past 50,000 URLs', () => {
    const start = Date.UTC(2000, 0, 1);
    const many = makeView(
      Array.from({ length: SITEMAP_MAX_URLS + 1 }, (_, i) =>
        makeReview({ id: `r${i}`, date: new Date(start + Math.floor(i / 10) * 86_400_000).toISOString().slice(0, 10) }),
      ),
    );
    expect(sitemapXml(many)).toBe(withXmlbuilder2(many));
    expect(sitemapXml(many)).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(sitemapPart(many, 2)).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
  });
});
