import type { StoredReview } from '../../src/domain/review.js';
import { fixtureState } from '../support/fixture.js';
import { createTestApp, type TestApp } from '../http/app-harness.js';

/** Review texts and fields that try every way out of an HTML text node, attribute or script block. */
export const HOSTILE: Record<string, Partial<StoredReview>> = {
  r40: {
    title: '<img src=x onerror="window.__xss=1">Title',
    text: 'Nice <script>window.__xss=1</script> job & "quotes" \'single\' </script><script>window.__xss=2</script> <!-- comment',
    author: { name: '<b onmouseover="window.__xss=3">Eve</b>', location: '"><svg onload=window.__xss=4>' },
    source: { platform: 'google', url: 'javascript:window.__xss=5' },
    response: { text: '<iframe src="https://evil.example/"></iframe> thanks', date: '2025-05-20' },
  },
  r39: {
    title: null,
    text: '</textarea></title></style><a href="https://evil.example/">click</a> \u2028 line separator',
    author: { name: 'Mallory', location: null },
  },
};

export const HOSTILE_MARKUP = [
  '<script>window',
  '<img src=x',
  '<b onmouseover',
  '<svg onload',
  '<iframe',
  '<a href="https://evil',
  '</textarea></title>',
];

export function hostileApp(): Promise<TestApp> {
  return createTestApp(fixtureState({ patch: HOSTILE }));
}

/** The HTML without script elements: what renders as markup or text. */
export function outsideScripts(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, ' ');
}

/** Every JSON-LD block of a page, parsed. */
export function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

/** Visible text with entities decoded (the few the renderer writes) and whitespace collapsed. */
export function visibleText(html: string): string {
  return outsideScripts(html)
    .replace(/<style\b[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The review ids a page links to as /reviews/{id}. */
export function linkedReviewIds(html: string, base: string): string[] {
  const ids = [...html.matchAll(/href="([^"]+)"/g)]
    .map((m) => m[1]!.replace(/&amp;/g, '&'))
    .filter((href) => href.startsWith(`${base}/reviews/`))
    .map((href) => decodeURIComponent(href.slice(`${base}/reviews/`.length)));
  return [...new Set(ids)];
}
