import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderAtomFeed } from '../../src/feeds/atom.js';
import { renderJsonFeed } from '../../src/feeds/json-feed.js';
import { goldenView } from '../support/feed-fixture.js';

/**
 * Byte-for-byte snapshots of both feeds for a fixed view: any change to what subscribers receive (and so
 * to the ETags and WebSub notifications built on these bytes) must show up as a reviewed diff.
 * After an intended change, inspect the diff and rewrite with `UPDATE_GOLDEN=1 npx vitest run src/feeds`.
 */
const cases = [
  { file: 'feed.json', render: renderJsonFeed },
  { file: 'feed.xml', render: renderAtomFeed },
] as const;

describe('golden files', () => {
  for (const { file, render } of cases) {
    it(`${file} matches __golden__/${file}`, () => {
      const url = new URL(`./__golden__/${file}`, import.meta.url);
      const actual = render(goldenView());
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(url, actual);
      expect(actual).toBe(readFileSync(url, 'utf8'));
      // No raw CR: line-ending conversion by git or an editor can never change the bytes we compare.
      expect(actual).not.toContain('\r');
    });
  }
});
