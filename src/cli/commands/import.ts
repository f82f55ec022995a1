import path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { importFiles } from '../../import/import-files.js';
import type { ImportFormat } from '../../import/raw-records.js';
import { formatProblem } from '../../import/validate-records.js';
import { parseCommandArgs } from '../args.js';
import { UsageError, type CliCommand } from '../command.js';
import { withStore } from './database.js';

// Below this many records an import is instant and a bar would only flicker.
const PROGRESS_MIN_RECORDS = 2000;

export const importCommand: CliCommand = {
  name: 'import',
  summary: 'load reviews and/or business metadata from JSON, JSON Lines or CSV files',
  usage:
    'review-data import FILE... [--format json|jsonl|csv] [--replace] [--assume-verified] [--database-url URL]\n' +
    '  Upserts by id. --replace makes the stored reviews equal to the files. All or nothing: any invalid\n' +
    '  record means nothing is written.',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      format: { type: 'string' },
      replace: { type: 'boolean', default: false },
      'assume-verified': { type: 'boolean', default: false },
      'database-url': { type: 'string' },
    });
    if (positionals.length === 0) throw new UsageError('name at least one FILE to import');
    if (values.format !== undefined && !['json', 'jsonl', 'csv'].includes(values.format))
      throw new UsageError(`--format must be json, jsonl or csv (got ${values.format})`);
    const files = positionals.map((f) => path.resolve(io.cwd, f));

    let bar: SingleBar | null = null;
    const outcome = await withStore(io, values['database-url'], (store) =>
      importFiles(store, {
        files,
        ...(values.format ? { format: values.format as ImportFormat } : {}),
        replace: values.replace,
        assumeVerified: values['assume-verified'],
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
      }),
    );
    if (!outcome.ok) {
      io.stderr.write(`import failed: ${outcome.problems.length} problem(s); nothing was written.\n`);
      for (const p of outcome.problems) io.stderr.write(`  ${formatProblem(p)}\n`);
      return 1;
    }
    const s = outcome.summary;
    io.stdout.write(
      `imported ${outcome.records} review record(s): ${s.added} added, ${s.updated} updated, ${s.unchanged} unchanged, ${s.deleted} deleted, ${s.unpublished} unpublished (stored, not served); business ${s.business}\n`,
    );
    return 0;
  },
};
