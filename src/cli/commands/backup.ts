import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config.js';
import { parseCommandArgs } from '../args.js';
import { OperatorError, UsageError, type CliCommand } from '../command.js';
import { withStore } from './database.js';

/** Whether process `pid` runs (on this machine); one of another user counts as running. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The partial copies of `file` that no running backup writes: `FILE.partial-PID` of a process that is
 * gone (killed, or the machine stopped), with SQLite's journal beside it, and the `FILE.partial` of
 * earlier versions. They are what a backup leaves when it does not finish, and never a backup.
 */
function stalePartials(file: string): string[] {
  const base = path.basename(file);
  const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.partial(?:-(\\d+))?(?:-journal)?$`);
  return fs
    .readdirSync(path.dirname(file))
    .filter((name) => {
      const m = pattern.exec(name);
      return m !== null && (m[1] === undefined || !running(Number(m[1])));
    })
    .map((name) => path.join(path.dirname(file), name));
}

/** Makes the finished copy FILE without ever replacing a FILE that appeared meanwhile. */
function publish(partial: string, file: string): void {
  const appeared = () => new OperatorError(`${file} appeared while the copy was made: choose a new file name (a backup never overwrites)`);
  try {
    fs.linkSync(partial, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw appeared();
    // A file system without hard links: the check and the rename are two steps there.
    if (fs.existsSync(file)) throw appeared();
    fs.renameSync(partial, file);
  }
}

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
    // Written under a name of this process's own, then linked: FILE is either absent or a complete copy,
    // and two backups never write into one partial file.
    const partial = `${file}.partial-${process.pid}`;
    // A backup reads the database: one that does not exist is a wrong DATABASE_URL, never an empty copy.
    await withStore(
      io,
      values['database-url'],
      async (_store, handle) => {
        if (!handle.backup) throw new OperatorError(`${handle.describe} cannot be backed up by this command`);
        if (handle.describe === ':memory:')
          throw new OperatorError('DATABASE_URL is an in-memory database: there is nothing on disk to back up');
        for (const stale of stalePartials(file)) {
          fs.rmSync(stale, { force: true });
          io.stderr.write(`removed ${stale}, left by a backup that did not finish\n`);
        }
        try {
          await handle.backup(partial);
          publish(partial, file);
        } finally {
          fs.rmSync(partial, { force: true });
          fs.rmSync(`${partial}-journal`, { force: true });
        }
      },
      { mustExist: true },
    );
    io.stderr.write(`wrote a consistent copy of the database to ${file} (${fs.statSync(file).size} bytes)\n`);
    return 0;
  },
};
