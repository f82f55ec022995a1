import fs from 'node:fs/promises';
import path from 'node:path';
import { BusinessSchema, type Business } from '../../domain/business.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { parseCommandArgs } from '../args.js';
import { UsageError, type CliCommand } from '../command.js';

/** The bundled demo, whose business gives the example values. */
const DEMO_DATASET = path.join(PACKAGE_ROOT, 'examples', 'demo', 'dataset.json');

/** Every business field with the demo's values as examples; catalogs cut to two entries to edit. */
export async function businessTemplate(): Promise<{ business: Omit<Business, 'taxonomy' | 'demo'> }> {
  const doc = JSON.parse(await fs.readFile(DEMO_DATASET, 'utf8')) as { business: unknown };
  const { taxonomy: _taxonomy, demo: _demo, ...demo } = BusinessSchema.parse(doc.business);
  return {
    business: {
      ...demo,
      services: demo.services.slice(0, 2),
      technicians: demo.technicians.slice(0, 2),
      service_areas: demo.service_areas.slice(0, 2),
      same_as: demo.same_as.slice(0, 2),
    },
  };
}

export const initCommand: CliCommand = {
  name: 'init',
  summary: 'write a business.json to fill in (every business field, the demo as example) and print the next commands',
  usage:
    'review-data init [FILE] [--force]\n  Writes FILE (business.json in the current folder by default); --force overwrites an existing one.',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { force: { type: 'boolean', default: false } });
    if (positionals.length > 1) throw new UsageError('name at most one FILE');
    const target = path.resolve(io.cwd, positionals[0] ?? 'business.json');
    const body = JSON.stringify(await businessTemplate(), null, 2) + '\n';
    try {
      await fs.writeFile(target, body, { flag: values.force ? 'w' : 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      io.stderr.write(`review-data init: ${target} exists; edit it, or pass --force to start over\n`);
      return 1;
    }
    const rel = path.relative(io.cwd, target) || target;
    io.stdout.write(
      [
        `wrote ${rel}: every business field, filled with the demo business's values as examples.`,
        '',
        'Next:',
        `  1. edit ${rel}: your id, name, address, hours, services, technicians and service areas`,
        `  2. npx review-data import ${rel} YOUR-REVIEWS        (a Google Takeout folder, a Trustpilot, Birdeye or Podium export,`,
        '                                                       Yelp or Facebook JSON, or a .csv/.xlsx spreadsheet: add',
        '                                                       --assume-verified for a spreadsheet of reviews you verified)',
        '  3. npm start                                         (serves them at http://127.0.0.1:8080)',
        '',
        'Check first with --dry-run; the first import of your own data replaces the bundled demo,',
        'and your own reviews replace the sample ones of examples/reviews-spreadsheet.csv.',
      ].join('\n') + '\n',
    );
    return 0;
  },
};
