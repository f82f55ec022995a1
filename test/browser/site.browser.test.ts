import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureState } from '../support/fixture.js';
import { HOSTILE } from '../site/site-harness.js';
import { chromiumAvailable, launchChromium, otherOrigins, record, startHostPage, startSite, type LiveSite } from './browser-harness.js';

/**
 * The public face in a real browser (contract §7): Debian's Chromium driven by playwright-core. The
 * data holds hostile reviews (test/site/site-harness.ts) that try to run `window.__xss = …`.
 */
describe.skipIf(!chromiumAvailable())('the site in Chromium', () => {
  let browser: Browser;
  let site: LiveSite;
  let origin: string;
  beforeAll(async () => {
    site = await startSite(fixtureState({ patch: HOSTILE }));
    origin = new URL(site.urls.base).origin;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  async function open(url: string, viewport = { width: 1280, height: 900 }) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const rec = record(page);
    const response = await page.goto(url, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    return { context, page, rec, status: response?.status() };
  }

  it.each(['/', '/reviews/r40', '/reviews?query=nice', '/embed'])(
    '%s renders, requests nothing from another origin, logs no error and runs no script from a review',
    async (path) => {
      const { context, page, rec, status } = await open(`${site.urls.base}${path}`);
      try {
        expect(status).toBe(200);
        expect(await page.locator('h1').first().isVisible()).toBe(true);
        expect(otherOrigins(rec.requests, [origin])).toEqual([]);
        expect(rec.consoleErrors).toEqual([]);
        expect(rec.dialogs).toEqual([]);
        expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
        expect(await page.locator('img, iframe').count()).toBe(0);
      } finally {
        await context.close();
      }
    },
  );

  it('shows the hostile review as text on its page', async () => {
    const { context, page } = await open(`${site.urls.base}/reviews/r40`);
    try {
      const text = (await page.evaluate(() => document.body.innerText)).replace(/\s+/g, ' ');
      expect(text).toContain('Nice <script>window.__xss=1</script> job');
      expect(text).toContain('<img src=x onerror="window.__xss=1">Title');
    } finally {
      await context.close();
    }
  });

  it('works on a phone: no horizontal scrolling on the home page', async () => {
    const { context, page } = await open(`${site.urls.base}/`, { width: 375, height: 740 });
    try {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });

  it('keeps every chart label whole on a 390 px phone: no word is split across lines', async () => {
    const { context, page } = await open(`${site.urls.base}/`, { width: 390, height: 844 });
    try {
      const labels = await page.evaluate(() =>
        [...document.querySelectorAll('.chart-label')].map((label) => {
          // A word broken inside ("Communicatio|n") lays out as two boxes of text.
          const text = label.firstChild!;
          const words: { word: string; boxes: number }[] = [];
          for (const m of (text.textContent ?? '').matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(text, m.index);
            range.setEnd(text, m.index + m[0].length);
            words.push({ word: m[0], boxes: range.getClientRects().length });
          }
          return words;
        }),
      );
      expect(labels.flat().length).toBeGreaterThan(3);
      expect(labels.flat().filter((w) => w.boxes !== 1)).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });

  it('reaches the search form by keyboard and submits it as a GET with the API parameters', async () => {
    const { context, page } = await open(`${site.urls.base}/reviews`);
    try {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await page.selectOption('#f-rating', '1');
      await page.locator('#f-query').fill('');
      await page.locator('button[type=submit]').press('Enter');
      await page.waitForURL(/\/reviews\?/);
      const url = new URL(page.url());
      expect(url.searchParams.get('rating')).toBe('1');
    } finally {
      await context.close();
    }
  });

  it.each(['/', '/reviews', '/reviews/r40', '/technicians/mike-r', '/embed'])(
    '%s has no serious or critical axe-core violation',
    async (path) => {
      const { context, page } = await open(`${site.urls.base}${path}`);
      try {
        const result = await new AxeBuilder({ page }).analyze();
        const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(
          bad.map(
            (v) =>
              `${v.id}: ${v.help} (${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 3)
                .join(', ')})`,
          ),
        ).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('renders the widget in a shadow root on a page of another origin', async () => {
    const host = await startHostPage(`${site.urls.base}/widget.js`);
    const { context, page, rec } = await open(`${host.origin}/`);
    try {
      const widget = page.locator('review-data-widget');
      await expect.poll(() => widget.locator('.count').textContent(), { timeout: 10_000 }).toMatch(/^Showing 3 of 40 verified reviews/);
      const shadow = await page.evaluate(() => {
        const root = document.querySelector('review-data-widget')!.shadowRoot!;
        return { text: root.textContent ?? '', links: [...root.querySelectorAll('a')].map((a) => a.href) };
      });
      expect(shadow.text).toContain('Nice <script>window.__xss=1</script> job');
      expect(shadow.links).toContain(`${site.urls.base}/`);
      expect(shadow.links).toContain(`${site.urls.base}/reviews/r40`);
      expect(otherOrigins(rec.requests, [origin, host.origin])).toEqual([]);
      expect(rec.consoleErrors).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
      const axe = await new AxeBuilder({ page }).include('review-data-widget').analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    } finally {
      await context.close();
      await host.close();
    }
  });
});
