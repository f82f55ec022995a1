/**
 * Writes phone and desktop screenshots of the public pages to docs/screenshots/, for the README.
 * Not a test: run it after a visible change, look at the pictures, commit them.
 *
 *   npx tsx scripts/screenshots.ts        (needs Chromium: apt-get install -y chromium)
 *
 * Serves the bundled demo business from a throw-away SQLite database, as `npm start` would.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { createServer, PACKAGE_ROOT } from '../src/server.js';

const OUT = path.join(PACKAGE_ROOT, 'docs', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PORT = Number(process.env.SCREENSHOT_PORT ?? 18080);
const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
};

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'review-data-screens-'));
const config = loadConfig({ PORT: String(PORT), DATABASE_URL: `sqlite:${path.join(dir, 'reviews.db')}`, LOG_LEVEL: 'warn' });
const server = await createServer(config, pino({ level: 'warn' }));
await server.app.listen({ port: PORT, host: '127.0.0.1' });
// The pictures show the insights: wait for the first ones (the cold start's bounded wait).
await server.snapshots.rendered();
const base = server.urls.base;

// The widget as a business's own site shows it: another origin, its own heading.
const host = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Summit Ridge: our customers</title>
<style>body{font-family:Georgia,serif;margin:32px;background:#fbf8f3;color:#222}review-data-widget{--rdw-accent:#7c2d12;margin-top:16px}</style></head>
<body><h1>What our customers say</h1><review-data-widget limit="3"></review-data-widget><script src="${base}/widget.js" async></script></body></html>`);
});
await new Promise<void>((resolve) => host.listen(PORT + 1, '127.0.0.1', resolve));

const firstReview = server.snapshots.current().view.reviews.find((r) => r.response && r.title)!;
const shots: [string, string, boolean][] = [
  ['home', `${base}/`, true],
  ['reviews', `${base}/reviews?min_rating=1&limit=10`, false],
  ['review', `${base}/reviews/${encodeURIComponent(firstReview.id)}`, false],
  ['technician', `${base}/technicians/${server.snapshots.current().view.business.technicians[0]!.id}`, false],
  ['widget', `http://127.0.0.1:${PORT + 1}/`, false],
];

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  await fs.mkdir(OUT, { recursive: true });
  for (const [name, url, fullPage] of shots) {
    for (const [device, viewport] of Object.entries(VIEWPORTS)) {
      const page = await browser.newPage({ viewport, deviceScaleFactor: device === 'phone' ? 2 : 1 });
      await page.goto(url, { waitUntil: 'networkidle' });
      if (name === 'widget') await page.locator('review-data-widget .count').waitFor();
      const file = path.join(OUT, `${name}-${device}.png`);
      await page.screenshot({ path: file, fullPage: fullPage && device === 'desktop' });
      await page.close();
      console.log(`wrote ${path.relative(PACKAGE_ROOT, file)}`);
    }
  }
} finally {
  await browser.close();
  host.close();
  await server.close();
  await fs.rm(dir, { recursive: true, force: true });
}
