import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../http/app-harness.js';
import { request } from '../http/app-harness.js';
import { HOSTILE, HOSTILE_MARKUP, hostileApp, jsonLd, outsideScripts, visibleText } from './site-harness.js';

/** Contract §7: every byte of review text is escaped; hostile reviews render as text on every page. */
describe('hostile reviews on the pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await hostileApp();
  });
  afterAll(() => t.app.close());

  const pages = ['/', '/reviews', '/reviews?query=nice', '/reviews/r40', '/reviews/r39', '/embed?limit=5', '/technicians/mike-r'];

  it.each(pages)('%s carries no live markup from review data', async (path) => {
    const res = await request(t.app, path);
    expect(res.status).toBe(200);
    const markup = outsideScripts(res.body);
    for (const raw of HOSTILE_MARKUP) expect(markup).not.toContain(raw);
    // Only our own hrefs: no javascript: URL from a review's source, no link planted in review text.
    expect(res.body).not.toMatch(/href="javascript:/i);
    expect(res.body).not.toContain('evil.example/"');
  });

  it('shows the hostile text verbatim as text', async () => {
    const text = visibleText((await request(t.app, '/reviews/r40')).body);
    expect(text).toContain(HOSTILE.r40!.text!.replace(/\s+/g, ' '));
    expect(text).toContain('<img src=x onerror="window.__xss=1">Title');
    expect(text).toContain('<b onmouseover="window.__xss=3">Eve</b>');
    expect(text).toContain('<iframe src="https://evil.example/"></iframe> thanks');
  });

  it('keeps JSON-LD blocks closed: no </script> or <!-- inside, and the exact text after parsing', async () => {
    const page = (await request(t.app, '/reviews/r40')).body;
    const blocks = [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).not.toMatch(/<\/script|<!--|<script/i);
    const [review] = jsonLd(page);
    expect(review!.reviewBody).toBe(HOSTILE.r40!.text);
    expect(review!.author).toEqual({ '@type': 'Person', name: HOSTILE.r40!.author!.name });
    const home = jsonLd((await request(t.app, '/')).body);
    const reviews = home[0]!.review as { reviewBody: string }[];
    expect(reviews.map((r) => r.reviewBody)).toContain(HOSTILE.r39!.text);
  });

  it('escapes text in the discovery documents that carry business data', async () => {
    const sitemap = (await request(t.app, '/sitemap.xml')).body;
    expect(sitemap).not.toContain('<script');
  });
});
