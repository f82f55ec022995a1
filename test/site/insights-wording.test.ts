import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, request, type TestApp } from '../http/app-harness.js';

interface Doc {
  aspects: Array<{ id: string; label: string }>;
  summary: { text: string; strengths: string[]; weaknesses: string[] };
}

/** The items of the list under a heading of the home page. */
function listUnder(html: string, heading: string): string[] {
  const at = html.indexOf(`<h3>${heading}</h3>`);
  if (at < 0) return [];
  const list = html.slice(at, html.indexOf('</ul>', at));
  return [...list.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]!);
}

describe('insights in words, on the pages and in llms.txt', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await createTestApp();
    doc = json<Doc>(await request(t.app, '/insights.json'));
  });
  afterAll(() => t.app.close());

  it('the home page names strengths and weaknesses by their labels, never one aspect in both lists', async () => {
    const html = (await request(t.app, '/')).body;
    const praised = listUnder(html, 'Praised for');
    const criticised = listUnder(html, 'Criticised for');
    const label = (id: string) => doc.aspects.find((a) => a.id === id)?.label;
    expect(praised).toEqual(doc.summary.strengths.map(label));
    expect(criticised).toEqual(doc.summary.weaknesses.map(label));
    expect(praised.length + criticised.length).toBeGreaterThan(0);
    for (const p of praised) expect(criticised).not.toContain(p);
  });

  it('shows no internal figure (a score) on the home page or in llms.txt', async () => {
    for (const path of ['/', '/llms.txt']) {
      // The words a reader sees: text, not markup (chart coordinates are decimals).
      const text = (await request(t.app, path)).body.replace(/<[^>]*>/g, ' ');
      expect(text).toContain(doc.summary.text.split('. ')[0]);
      expect(text).not.toMatch(/\bscore\b/i);
      expect(text).not.toMatch(/-?\b\d\.\d\d\b/);
    }
  });
});
