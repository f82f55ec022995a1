import type { PublishedView } from '../domain/published-view.js';
import type { InsightsDocument } from '../insights/schema.js';
import { shownUpdatedAt } from '../feeds/feed-content.js';
import { formatRating, plural } from './format.js';

/** Discovery documents for crawlers and assistants (contract §7): llms.txt, sitemap.xml, robots.txt. */

/** Markdown link text and titles on one line, without the characters that would end them. */
function md(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/[[\]]/g, '').trim();
}

/** The llms.txt proposal's shape: an H1, a blockquote summary, free text, then H2 sections of links. */
export function llmsTxt(view: PublishedView, insights: InsightsDocument | null): string {
  const { business: b, aggregate: a, urls: u } = view;
  const lines: string[] = [`# ${md(b.name)}`, ''];
  const about = [
    b.description,
    b.address?.locality ? `Based in ${[b.address.locality, b.address.region].filter(Boolean).join(', ')}.` : null,
  ]
    .filter(Boolean)
    .join(' ');
  lines.push(`> ${md(about || `Verified customer reviews of ${b.name}.`)}`, '');
  // Assistants read this file instead of the pages: they are told the demo is invented, as people are.
  if (b.demo) lines.push('**Demo data**: an invented business with made-up reviews, served to show what this service publishes.', '');
  lines.push(
    a.review_count > 0
      ? `Rated ${formatRating(a.rating_value)} out of 5 from ${plural(a.review_count, 'verified review')} (${[5, 4, 3, 2, 1].map((n) => `${n}★ ${a.distribution[String(n) as '1']}`).join(', ')}).`
      : 'No published reviews yet.',
  );
  if (insights) lines.push('', md(`${insights.summary.headline} ${insights.summary.text}`));
  const contact = [b.telephone && `phone ${b.telephone}`, b.email && `email ${b.email}`, b.url && `website ${b.url}`].filter(Boolean);
  if (contact.length) lines.push('', `Contact: ${contact.join(', ')}.`);
  if (b.service_areas.length) lines.push(`Service areas: ${b.service_areas.map((s) => md(s.name)).join(', ')}.`);
  if (b.services.length) lines.push(`Services: ${b.services.map((s) => md(s.name)).join(', ')}.`);
  lines.push(
    '',
    '## Data',
    '',
    `- [Reviews dataset (JSON)](${u.reviewsJson}): the business, the aggregate rating and every published review, newest first`,
    `- [Insights (JSON)](${u.insightsJson}): sentiment per aspect, technicians, services and areas, topics, FAQ and summary`,
    `- [Search API](${u.search}): filter by rating, min_rating, since, until, query, mentions_technician, mentions_service; sort and page`,
    `- [API reference](${u.base}/docs): every endpoint, from the [OpenAPI 3.1 document](${u.openapi})`,
    '',
    '## For AI assistants',
    '',
    `- [MCP endpoint](${u.mcp}): Model Context Protocol over streamable HTTP, read-only tools get_business, search_reviews, get_review, get_reviews_since, get_insights`,
    '',
    '## Feeds',
    '',
    `- [Atom feed](${u.feedXml}): the 50 newest reviews, with WebSub push`,
    `- [JSON Feed](${u.feedJson}): the same reviews as JSON Feed 1.1`,
    '',
    '## Optional',
    '',
    `- [All reviews](${u.base}/reviews): the reviews as web pages`,
    `- [Sitemap](${u.base}/sitemap.xml): every page`,
    '',
  );
  return lines.join('\n');
}

/** sitemaps.org: at most 50,000 URLs per sitemap file; more go into numbered files behind an index. */
export const SITEMAP_MAX_URLS = 50_000;

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

export function sitemapUrls(view: PublishedView): SitemapUrl[] {
  const { business: b, urls: u } = view;
  const day = view.updatedAt.slice(0, 10);
  const entry = (kind: string, id: string): SitemapUrl => ({ loc: `${u.base}/${kind}/${encodeURIComponent(id)}`, lastmod: day });
  return [
    { loc: `${u.base}/`, lastmod: day },
    { loc: `${u.base}/reviews`, lastmod: day },
    ...b.technicians.map((t) => entry('technicians', t.id)),
    ...b.services.map((s) => entry('services', s.id)),
    ...b.service_areas.map((s) => entry('areas', s.id)),
    { loc: `${u.base}/docs` },
    ...view.reviews.map((r) => ({ loc: u.reviewPage(r.id), lastmod: shownUpdatedAt(r, view).slice(0, 10) })),
  ];
}

/** How many numbered sitemap files the view needs (0: a single urlset at /sitemap.xml). */
export function sitemapParts(view: PublishedView): number {
  const n = sitemapUrls(view).length;
  return n <= SITEMAP_MAX_URLS ? 0 : Math.ceil(n / SITEMAP_MAX_URLS);
}

export function robotsTxt(view: PublishedView): string {
  return ['User-agent: *', 'Allow: /', '', `Sitemap: ${view.urls.base}/sitemap.xml`, ''].join('\n');
}
