import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServiceUrls, type ServiceUrls } from '../../src/domain/urls.js';
import { createApp } from '../../src/http/app.js';
import type { DatasetState } from '../../src/domain/ports.js';
import { renderSnapshot, testDocumentRenderers } from '../support/renderers.js';

/** Debian's Chromium (apt-get install chromium); .ci/run installs it where it is missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Whether the browser tests can run. Outside CI a missing Chromium skips them, loudly; in CI it is an
 * error, because .ci/run installs it.
 */
export function chromiumAvailable(): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  const message = `\n!!! BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH) !!!\n`;
  if (process.env.CI) throw new Error(message);
  console.warn(message);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 30_000 });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface LiveSite {
  app: FastifyInstance;
  urls: ServiceUrls;
  close(): Promise<void>;
}

/** The app on a real loopback port, its BASE_URL that origin (the widget fetches from it). */
export async function startSite(state: DatasetState): Promise<LiveSite> {
  const port = await freePort();
  const urls = createServiceUrls(`http://127.0.0.1:${port}`);
  const renderers = testDocumentRenderers();
  const snapshot = await renderSnapshot(state, urls, renderers.list);
  const app = await createApp({ snapshots: { current: () => snapshot }, urls });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    urls,
    async close() {
      await app.close();
      await renderers.close();
    },
  };
}

/** A page on another origin that embeds the widget, as a business's own website would. */
export async function startHostPage(widgetUrl: string): Promise<{ origin: string; close(): Promise<void> }> {
  const port = await freePort();
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our own site</title><link rel="icon" href="data:,"></head>
<body><main><h1>What our customers say</h1><review-data-widget limit="3"></review-data-widget></main>
<script src="${widgetUrl}" async></script></body></html>`;
  const server = http.createServer((req, res) => {
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url === '/' ? html : '');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface Recorded {
  requests: string[];
  consoleErrors: string[];
  dialogs: string[];
}

/** Records every request, console error, uncaught error and dialog of a page. */
export function record(page: Page): Recorded {
  const rec: Recorded = { requests: [], consoleErrors: [], dialogs: [] };
  page.on('request', (r) => rec.requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') rec.consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => rec.consoleErrors.push(`uncaught ${e.message}`));
  page.on('dialog', (d) => {
    rec.dialogs.push(d.message());
    void d.dismiss();
  });
  return rec;
}

export function otherOrigins(requests: readonly string[], allowed: readonly string[]): string[] {
  return requests.filter((u) => /^https?:/.test(u) && !allowed.includes(new URL(u).origin));
}
