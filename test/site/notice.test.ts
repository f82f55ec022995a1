import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, request, type TestApp } from '../http/app-harness.js';
import { fixtureState } from '../support/fixture.js';
import { visibleText } from './site-harness.js';

const PAGES = ['/', '/reviews', '/reviews/r40', '/technicians/mike-r', '/services/drain-cleaning', '/areas/old-town', '/reviews/no-such'];

describe('invented data says so on every page', () => {
  let demo: TestApp;
  let sample: TestApp;
  let own: TestApp;
  beforeAll(async () => {
    const state = fixtureState();
    demo = await createTestApp({ ...state, business: { ...state.business!, demo: true } });
    // Two reviews of the README's sample spreadsheet beside the business's own.
    sample = await createTestApp({
      ...state,
      reviews: state.reviews.map((r, i) => (i < 2 ? { ...r, id: `sample-${i + 1}` } : r)),
    });
    own = await createTestApp(fixtureState({ patch: { r40: { source: { platform: 'trustpilot', url: null } } } }));
  });
  afterAll(async () => {
    await Promise.all([demo.app.close(), sample.app.close(), own.app.close()]);
  });

  it.each(PAGES)('the demo business is called a demo on %s, with the command that replaces it', async (path) => {
    const res = await request(demo.app, path);
    const text = visibleText(res.body);
    expect(text).toMatch(/Demo\. .* is an invented business and its reviews are made up/);
    expect(text).toContain('npx review-data init');
  });

  it('the embed frame and llms.txt say it too', async () => {
    expect(visibleText((await request(demo.app, '/embed')).body)).toContain('Demo: an invented business');
    expect((await request(demo.app, '/llms.txt')).body).toContain('**Demo data**: an invented business with made-up reviews');
    expect((await request(own.app, '/llms.txt')).body).not.toContain('Demo data');
  });

  it('sample reviews are marked one by one, and the pages say how many there are', async () => {
    const home = visibleText((await request(sample.app, '/reviews?limit=100')).body);
    expect(home).toContain('Sample reviews. 2 reviews marked “sample” come from the project’s example spreadsheet');
    const page = (await request(sample.app, '/reviews/sample-1')).body;
    expect(page).toContain('<span class="badge"');
    expect(visibleText(page)).toMatch(/ sample /);
  });

  it("a real business's pages carry no notice, and name platforms as people write them", async () => {
    for (const path of PAGES) expect((await request(own.app, path)).body).not.toContain('class="demo-notice"');
    const page = visibleText((await request(own.app, '/reviews/r40')).body);
    expect(page).toContain('on Trustpilot');
    expect(page).not.toContain('on trustpilot');
  });
});
