import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config.js';
import { parseCommandArgs } from '../args.js';
import { OperatorError, UsageError, type CliCommand } from '../command.js';
import { withStore } from './database.js';

/**
 * `review-data backup FILE` (contract §8): a consistent copy of the SQLite database, safe while the
 * server runs and imports write (SQLite's online backup API copies one committed state). PostgreSQL
 * has its own tool for that: pg_dump.
 */
export const backupCommand: CliCommand = {
  name: 'backup',
  summary: 'write a consistent copy of the SQLite database to FILE while the server runs',
  usage: 'review-data backup FILE [--database-url URL]\n  FILE must not exist. With PostgreSQL, use pg_dump instead.',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { 'database-url': { type: 'string' } });
    const target = positionals[0];
    if (!target) throw new UsageError('name the file to write the copy to');
    const config = loadConfig(io.env, { 'database-url': values['database-url'] });
    if (/^postgres(ql)?:/i.test(config.DATABASE_URL)) {
      throw new OperatorError(
        `DATABASE_URL is PostgreSQL: back it up with pg_dump, e.g. pg_dump --format=custom --file ${target} "$DATABASE_URL"`,
      );
    }
    const file = path.resolve(io.cwd, target);
    if (fs.existsSync(file)) throw new OperatorError(`${file} already exists: choose a new file name (a backup never overwrites)`);
    if (!fs.existsSync(path.dirname(file))) throw new OperatorError(`the directory ${path.dirname(file)} does not exist: create it first`);
    const partial = `${file}.partial`;
    await withStore(io, values['database-url'], async (_store, handle) => {
      if (!handle.backup) throw new OperatorError(`${handle.describe} cannot be backed up by this command`);
      if (handle.describe === ':memory:')
        throw new OperatorError('DATABASE_URL is an in-memory database: there is nothing on disk to back up');
      // Written under another name, then renamed: FILE is either absent or a complete copy.
      await handle.backup(partial);
      fs.renameSync(partial, file);
    });
    io.stderr.write(`wrote a consistent copy of the database to ${file} (${fs.statSync(file).size} bytes)\n`);
    return 0;
  },
};
