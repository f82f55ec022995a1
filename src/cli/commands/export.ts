import fs from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../config.js';
import { createMentionMatcher } from '../../domain/mentions.js';
import { compareNewest } from '../../domain/review-order.js';
import { createServiceUrls } from '../../domain/urls.js';
import { toPublicReview } from '../../domain/public-review.js';
import { datasetDocument } from '../../snapshot/renderers/dataset.js';
import { buildView } from '../../snapshot/snapshot.js';
import { parseCommandArgs } from '../args.js';
import type { CliCommand } from '../command.js';
import { withStore } from './database.js';

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'write the dataset document (the /reviews.json shape) to FILE or stdout',
  usage:
    'review-data export [FILE] [--all] [--database-url URL]\n  --all includes unverified and hidden records, with their `verified` and `hidden` flags.',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      all: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
    });
    const config = loadConfig(io.env, { 'database-url': values['database-url'] });
    const urls = createServiceUrls(config.BASE_URL);
    const json = await withStore(io, values['database-url'], async (store) => {
      const state = await store.load();
      const view = buildView(state, urls);
      const doc = datasetDocument(view);
      if (!values.all) return JSON.stringify(doc, null, 2);
      // Every stored record, newest first, in the public shape plus the flags that unpublish it.
      const matcher = createMentionMatcher(view.business);
      const all = [...state.reviews]
        .sort(compareNewest)
        .map((r) => ({ ...toPublicReview(r, matcher), verified: r.verified, hidden: r.hidden }));
      return JSON.stringify({ ...doc, reviews: all }, null, 2);
    });
    if (positionals[0]) {
      const file = path.resolve(io.cwd, positionals[0]);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a crash never leaves half a file where a good one was.
      await fs.writeFile(`${file}.tmp`, json + '\n');
      await fs.rename(`${file}.tmp`, file);
      io.stderr.write(`wrote ${file}\n`);
    } else {
      io.stdout.write(json + '\n');
    }
    return 0;
  },
};
