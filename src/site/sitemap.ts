import { create } from 'xmlbuilder2';
import type { PublishedView } from '../domain/published-view.js';
import { SITEMAP_MAX_URLS, sitemapParts, sitemapUrls, type SitemapUrl } from './discovery.js';

/**
 * sitemap.xml and its parts (contract §7), written with the XML builder: a module of their own, loaded
 * with the first sitemap request, so a start does not load the builder for them.
 */

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** xmlbuilder2 leaves `&` before entity-shaped text unescaped (see feeds/atom.ts), so escape it first. */
const xmlText = (s: string) => s.replace(/&/g, '&amp;');

function urlset(list: readonly SitemapUrl[]): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(SITEMAP_NS, 'urlset');
  for (const u of list) {
    const url = root.ele('url');
    url.ele('loc').txt(xmlText(u.loc));
    if (u.lastmod) url.ele('lastmod').txt(u.lastmod);
  }
  return `${root.end({ prettyPrint: true })}\n`;
}

/** /sitemap.xml: the urlset, or an index of /sitemaps/{n}.xml when there are too many URLs. */
export function sitemapXml(view: PublishedView): string {
  const parts = sitemapParts(view);
  if (parts === 0) return urlset(sitemapUrls(view));
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(SITEMAP_NS, 'sitemapindex');
  for (let i = 1; i <= parts; i++)
    root
      .ele('sitemap')
      .ele('loc')
      .txt(xmlText(`${view.urls.base}/sitemaps/${i}.xml`));
  return `${root.end({ prettyPrint: true })}\n`;
}

/** /sitemaps/{n}.xml, 1-based; null past the last part. */
export function sitemapPart(view: PublishedView, n: number): string | null {
  if (!Number.isInteger(n) || n < 1 || n > sitemapParts(view)) return null;
  return urlset(sitemapUrls(view).slice((n - 1) * SITEMAP_MAX_URLS, n * SITEMAP_MAX_URLS));
}
