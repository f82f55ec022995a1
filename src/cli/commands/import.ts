import path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { importFiles } from '../../import/import-files.js';
import { IMPORT_FORMATS, type ImportFormat } from '../../import/raw-records.js';
import { DATE_ORDERS, type DateOrder } from '../../import/sheet-values.js';
import { formatProblem } from '../../import/validate-records.js';
import { parseCommandArgs } from '../args.js';
import { UsageError, type CliCommand } from '../command.js';
import { primeAfterImport } from '../prime-insights.js';
import { withStore } from './database.js';

// Below this many records an import is instant and a bar would only flicker.
const PROGRESS_MIN_RECORDS = 2000;

export const importCommand: CliCommand = {
  name: 'import',
  summary: 'load reviews and/or business metadata: JSON, JSON Lines, CSV spreadsheets, Google Business Profile JSON or a Takeout folder',
  usage: [
    'review-data import FILE|FOLDER... [--format json|jsonl|csv|gbp] [--replace] [--assume-verified] [--dry-run]',
    '                   [--map "Column Name=field,..."] [--delimiter ";"] [--date-format MDY|DMY|YMD] [--platform NAME]',
    '                   [--database-url URL]',
    '  Upserts by id. --replace makes the stored reviews equal to the files. All or nothing: any invalid',
    '  record means nothing is written, and every problem is listed. --dry-run validates and prints the',
    '  summary without writing. Spreadsheet headers are matched through synonyms ("Star Rating" is rating);',
    '  --map names the others ("Column=-" drops one). A FOLDER (Google Takeout) stands for the review JSON',
    '  files in it. The first import of your own data removes the bundled demo.',
  ].join('\n'),
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      format: { type: 'string' },
      replace: { type: 'boolean', default: false },
      'assume-verified': { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      map: { type: 'string', multiple: true },
      delimiter: { type: 'string' },
      'date-format': { type: 'string' },
      platform: { type: 'string' },
      'database-url': { type: 'string' },
    });
    if (positionals.length === 0) throw new UsageError('name at least one FILE to import');
    if (values.format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(values.format))
      throw new UsageError(`--format must be ${IMPORT_FORMATS.join(', ')} (got ${values.format})`);
    const dateFormat = values['date-format']?.toUpperCase();
    if (dateFormat !== undefined && !(DATE_ORDERS as readonly string[]).includes(dateFormat))
      throw new UsageError(`--date-format must be MDY, DMY or YMD (got ${values['date-format']})`);
    const delimiter = values.delimiter === '\\t' || values.delimiter?.toLowerCase() === 'tab' ? '\t' : values.delimiter;
    if (delimiter !== undefined && delimiter.length !== 1)
      throw new UsageError(`--delimiter must be one character, such as ";" or tab (got ${values.delimiter})`);
    const platform = values.platform?.trim().toLowerCase();
    if (platform !== undefined && !/^[a-z0-9][a-z0-9._-]*$/.test(platform))
      throw new UsageError(`--platform must be a name such as google, yelp or facebook (got ${values.platform})`);
    const files = positionals.map((f) => path.resolve(io.cwd, f));

    let bar: SingleBar | null = null;
    let noBusiness = false;
    let primed: string | null = null;
    const outcome = await withStore(io, values['database-url'], async (store, handle) => {
      const o = await importFiles(store, {
        files,
        ...(values.format ? { format: values.format as ImportFormat } : {}),
        replace: values.replace,
        assumeVerified: values['assume-verified'],
        dryRun: values['dry-run'],
        ...(values.map ? { map: values.map.join(',') } : {}),
        ...(delimiter ? { delimiter } : {}),
        ...(dateFormat ? { dateFormat: dateFormat as DateOrder } : {}),
        ...(platform ? { platform } : {}),
        onProgress: (phase, done, total) => {
          if (phase !== 'write' || !io.stderr.isTTY || total < PROGRESS_MIN_RECORDS) return;
          if (!bar) {
            bar = new SingleBar(
              { format: 'writing [{bar}] {percentage}% {value}/{total} records', stream: io.stderr },
              Presets.shades_classic,
            );
            bar.start(total, 0);
          }
          bar.update(done);
          if (done >= total) bar.stop();
        },
      });
      // Reviews without a business would be published as "Unnamed business": say what to do.
      noBusiness = o.ok && !values['dry-run'] && (await store.business()) === null;
      // The insights of what was imported, stored for the server's next start (served at once, no 503).
      if (o.ok && !values['dry-run']) primed = await primeAfterImport(io, handle, values['database-url']);
      return o;
    });
    if (!outcome.ok) {
      io.stderr.write(`import failed: ${outcome.problems.length} problem(s); nothing was written.\n`);
      for (const p of outcome.problems) io.stderr.write(`  ${formatProblem(p)}\n`);
      return 1;
    }
    const s = outcome.summary;
    const dry = values['dry-run'];
    const out: string[] = [];
    if (s.demo_removed)
      out.push(
        `${dry ? 'would remove' : 'removed'} the bundled demo business "${s.demo_removed.name}" and its ${s.demo_removed.reviews} reviews: this is your own data now`,
      );
    if (outcome.skipped.length > 0)
      out.push(`skipped ${outcome.skipped.length} file(s) that hold no reviews: ${outcome.skipped.join(', ')}`);
    out.push(
      `${dry ? 'dry run: would import' : 'imported'} ${outcome.records} review record(s): ${s.added} added, ${s.updated} updated, ${s.unchanged} unchanged, ${s.deleted} deleted, ${s.unpublished} unpublished (stored, not served); business ${s.business}`,
    );
    if (primed) out.push(primed);
    if (dry) out.push('nothing was written (--dry-run)');
    else if (noBusiness)
      out.push("no business data yet: run 'npx review-data init', fill in business.json, then 'npx review-data import business.json'");
    io.stdout.write(out.join('\n') + '\n');
    return 0;
  },
};
