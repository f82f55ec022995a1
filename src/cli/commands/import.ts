import fs from 'node:fs/promises';
import path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { BusinessSchema, type Business } from '../../domain/business.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { importFiles, type ImportOptions } from '../../import/import-files.js';
import { IMPORT_FORMATS } from '../../import/raw-records.js';
import { DATE_ORDERS } from '../../import/sheet-values.js';
import { formatProblem } from '../../import/validate-records.js';
import { parseCommandArgs } from '../args.js';
import { UsageError, type CliCommand, type CliIo } from '../command.js';
import { primeAfterImport } from '../prime-insights.js';
import { withStore } from './database.js';

// Below this many records an import is instant and a bar would only flicker.
const PROGRESS_MIN_RECORDS = 2000;

/** The demo business, whose values `init` writes as examples: an import that still holds them is refused. */
async function initTemplate(): Promise<Business | undefined> {
  try {
    const doc = JSON.parse(await fs.readFile(path.join(PACKAGE_ROOT, 'examples', 'demo', 'dataset.json'), 'utf8')) as { business: unknown };
    return BusinessSchema.parse(doc.business);
  } catch {
    return undefined;
  }
}

/** The command line as import options; a UsageError says what is wrong with it. */
function parseImportArgs(argv: string[], cwd: string): { options: ImportOptions; databaseUrl: string | undefined } {
  const { values, positionals } = parseCommandArgs(argv, {
    format: { type: 'string' },
    replace: { type: 'boolean', default: false },
    'assume-verified': { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    map: { type: 'string', multiple: true },
    delimiter: { type: 'string' },
    'date-format': { type: 'string' },
    platform: { type: 'string' },
    sheet: { type: 'string' },
    strict: { type: 'boolean', default: false },
    'allow-unknown-mentions': { type: 'boolean', default: false },
    'allow-example-values': { type: 'boolean', default: false },
    'database-url': { type: 'string' },
  });
  if (positionals.length === 0) throw new UsageError('name at least one FILE to import');
  const format = oneOf(values.format, IMPORT_FORMATS, `--format must be ${IMPORT_FORMATS.join(', ')} (got ${values.format})`);
  const dateFormat = oneOf(
    values['date-format']?.toUpperCase(),
    DATE_ORDERS,
    `--date-format must be MDY, DMY or YMD (got ${values['date-format']})`,
  );
  const delimiter = values.delimiter === '\\t' || values.delimiter?.toLowerCase() === 'tab' ? '\t' : values.delimiter;
  if (delimiter !== undefined && delimiter.length !== 1)
    throw new UsageError(`--delimiter must be one character, such as ";" or tab (got ${values.delimiter})`);
  const platform = values.platform?.trim().toLowerCase();
  if (platform !== undefined && !/^[a-z0-9][a-z0-9._-]*$/.test(platform))
    throw new UsageError(`--platform must be a name such as google, yelp or facebook (got ${values.platform})`);
  const options: ImportOptions = {
    files: positionals.map((f) => path.resolve(cwd, f)),
    ...(format ? { format } : {}),
    replace: values.replace,
    assumeVerified: values['assume-verified'],
    dryRun: values['dry-run'],
    ...(values.map ? { map: values.map.join(',') } : {}),
    ...(delimiter ? { delimiter } : {}),
    ...(dateFormat ? { dateFormat } : {}),
    ...(platform ? { platform } : {}),
    ...(values.sheet !== undefined ? { sheet: values.sheet } : {}),
    ...(values.strict ? { strict: true } : {}),
    ...(values['allow-unknown-mentions'] ? { allowUnknownMentions: true } : {}),
    ...(values['allow-example-values'] ? { allowExampleValues: true } : {}),
  };
  return { options, databaseUrl: values['database-url'] };
}

/** An option's value when it is one of `allowed`; a UsageError with `message` when it is another. */
function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], message: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(message);
  return value as T;
}

/** A progress bar on a terminal, for the writing of a large import only. */
function progressBar(stream: CliIo['stderr']): NonNullable<ImportOptions['onProgress']> {
  let bar: SingleBar | null = null;
  return (phase, done, total) => {
    if (phase !== 'write' || !stream.isTTY || total < PROGRESS_MIN_RECORDS) return;
    if (!bar) {
      bar = new SingleBar({ format: 'writing [{bar}] {percentage}% {value}/{total} records', stream }, Presets.shades_classic);
      bar.start(total, 0);
    }
    bar.update(done);
    if (done >= total) bar.stop();
  };
}

export const importCommand: CliCommand = {
  name: 'import',
  summary:
    'load reviews and/or business metadata: JSON, JSON Lines, CSV or Excel spreadsheets, platform exports (Google, Trustpilot, Yelp, Facebook, Birdeye, Podium) or a Takeout folder',
  usage: [
    'review-data import FILE|FOLDER... [--format json|jsonl|csv|gbp|xlsx] [--replace] [--assume-verified] [--dry-run]',
    '                   [--map "Column Name=field,..."] [--delimiter ";"] [--date-format MDY|DMY|YMD] [--platform NAME]',
    '                   [--sheet NAME] [--strict] [--allow-unknown-mentions] [--allow-example-values] [--database-url URL]',
    '  Upserts by id. --replace makes the stored reviews equal to the files. All or nothing: any invalid',
    '  record means nothing is written, and every problem is listed. --dry-run validates and prints the',
    '  summary without writing. Known exports (Google Takeout, Trustpilot, Yelp Fusion, Facebook ratings,',
    '  Birdeye, Podium) are recognised by their headers or shape. Other spreadsheet headers are matched',
    '  through synonyms ("Star Rating" is rating); --map names the others, spreadsheet columns or JSON keys',
    '  ("user.name=author.name"; "Column=-" drops one). Columns and keys that give no field are listed and',
    '  ignored; --strict refuses them. Mentions are catalog ids, names or aliases; one that names nothing is',
    '  a problem unless --allow-unknown-mentions. --sheet picks an .xlsx sheet (the first by default). A',
    '  FOLDER (Google Takeout) stands for the review JSON files in it. A business that still holds an',
    "  example value 'review-data init' wrote (the demo's phone, address, ...) is refused, each field named,",
    '  unless --allow-example-values (trying the steps out). The first import of your own data removes the',
    '  bundled demo, and your own reviews remove the sample ones.',
  ].join('\n'),
  async run(argv, io) {
    const { options, databaseUrl } = parseImportArgs(argv, io.cwd);
    const template = await initTemplate();
    let noBusiness = false;
    let primed: string | null = null;
    const outcome = await withStore(io, databaseUrl, async (store, handle) => {
      const o = await importFiles(store, { ...options, ...(template ? { template } : {}), onProgress: progressBar(io.stderr) });
      // Reviews without a business would be published as "Unnamed business": say what to do.
      noBusiness = o.ok && !options.dryRun && (await store.business()) === null;
      // The insights of what was imported, stored for the server's next start (served at once, no 503).
      if (o.ok && !options.dryRun) primed = await primeAfterImport(io, handle, databaseUrl);
      return o;
    });
    // Notes first, so what was ignored is said whether or not the import went through.
    if (outcome.warnings.length > 0) {
      io.stderr.write(`note: ${outcome.warnings.length} thing(s) in the files are not imported:\n`);
      for (const w of outcome.warnings) io.stderr.write(`  ${formatProblem(w)}\n`);
    }
    if (!outcome.ok) {
      io.stderr.write(`import failed: ${outcome.problems.length} problem(s); nothing was written.\n`);
      for (const p of outcome.problems) io.stderr.write(`  ${formatProblem(p)}\n`);
      return 1;
    }
    const s = outcome.summary;
    const dry = options.dryRun;
    const out: string[] = [];
    for (const r of outcome.recognised) out.push(`read ${r.file} as ${r.label}`);
    if (s.sample_removed)
      out.push(
        `${dry ? 'would remove' : 'removed'} the ${s.sample_removed} sample review(s) of examples/reviews-spreadsheet.csv: your own reviews take their place`,
      );
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
