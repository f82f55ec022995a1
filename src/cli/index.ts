#!/usr/bin/env node
import { ConfigError } from '../config.js';
import { OperatorError, UsageError, type CliCommand, type CliIo } from './command.js';
import { nearest } from './suggest.js';

interface CommandEntry {
  name: string;
  load(): Promise<CliCommand>;
}

/**
 * Each command's module loads only when it runs: `import` and `export` would otherwise pay a second
 * of start-up for the server, the NLP model and the MCP SDK they never use.
 */
const COMMANDS: CommandEntry[] = [
  {
    name: 'serve',
    load: async () => (await import('./commands/serve.js')).serveCommand,
  },
  {
    name: 'import',
    load: async () => (await import('./commands/import.js')).importCommand,
  },
  {
    name: 'init',
    load: async () => (await import('./commands/init.js')).initCommand,
  },
  {
    name: 'export',
    load: async () => (await import('./commands/export.js')).exportCommand,
  },
  {
    name: 'backup',
    load: async () => (await import('./commands/backup.js')).backupCommand,
  },
  {
    name: 'sync',
    load: async () => (await import('./commands/sync.js')).syncCommand,
  },
  {
    name: 'connect',
    load: async () => (await import('./commands/connect.js')).connectCommand,
  },
  {
    name: 'subscriptions',
    load: async () => (await import('./commands/subscriptions.js')).subscriptionsCommand,
  },
  {
    name: 'train-absa',
    load: async () => (await import('./commands/train-absa.js')).trainAbsaCommand,
  },
  {
    name: 'eval-absa',
    load: async () => (await import('./commands/eval-absa.js')).evalAbsaCommand,
  },
];

/** The command list with each summary; loads every command, which only help needs. */
async function help(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map((c) => c.load()));
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: review-data <command> [options]',
    '       review-data --version',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'review-data <command> --help' for a command's options.",
  ].join('\n');
}

/**
 * A storage failure the operator fixes outside the program (a full disk), said as its cause. The write
 * was one transaction, so nothing of it was kept (it used to be reported as "cannot rollback").
 */
function storageFailure(e: unknown): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FULL')
    return 'the disk holding the database is full (SQLITE_FULL): nothing was written; free some space and run it again';
  if (code === 'ENOSPC') return 'the disk is full (ENOSPC): nothing was written; free some space and run it again';
  if (typeof code === 'string' && code.startsWith('SQLITE_IOERR'))
    return `the database could not be written (${code}: ${(e as Error).message}): nothing was written; check the disk`;
  return null;
}

/** Words people type for a command by another name: `start` as in `npm start`. */
const OTHER_NAMES: Readonly<Record<string, string>> = { start: 'serve', run: 'serve', server: 'serve', load: 'import' };

/** What an unknown first word is called, with the command or option it most likely meant. */
function unknownCommand(name: string): string {
  if (name.startsWith('-')) {
    const guess = nearest(name.replace(/^-+/, ''), ['version', 'help']);
    return `unknown option '${name}'${guess ? ` (did you mean '--${guess}'?)` : ''}; options come after a command`;
  }
  const other = OTHER_NAMES[name.toLowerCase()];
  if (other) return `unknown command '${name}' (did you mean '${other}'?${other === 'serve' ? " 'npm start' runs it too" : ''})`;
  const guess = nearest(name, [...COMMANDS.map((c) => c.name), 'version', 'help']);
  return `unknown command '${name}'${guess ? ` (did you mean '${guess}'?)` : ''}`;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write((await help()) + '\n');
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    const { packageVersion } = await import('./version.js');
    io.stdout.write(`review-data ${packageVersion()}\n`);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.stderr.write(`review-data: ${unknownCommand(name)}\n\n${await help()}\n`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`usage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    return failed(name, command.usage, e, io);
  }
}

/** How a command's failure is said, and its exit status: 2 for what the operator changes, else 1. */
function failed(name: string, usage: string, e: unknown, io: CliIo): number {
  if (e instanceof UsageError) {
    io.stderr.write(`review-data ${name}: ${e.message}\nusage: ${usage}\n`);
    return 2;
  }
  // Contract §8: what to change, on one line, exit status 2, no stack trace. Matched by name so that
  // the storage module loads only with the commands that use it.
  if (e instanceof ConfigError || e instanceof OperatorError || (e instanceof Error && e.name === 'DatabaseOpenError')) {
    io.stderr.write(`review-data ${name}: ${e.message}\n`);
    return 2;
  }
  // A file named on the command line (or in a setting) that is not there: said plainly, no stack.
  const errno = e as NodeJS.ErrnoException;
  if (errno?.code === 'ENOENT' && typeof errno.path === 'string') {
    io.stderr.write(`review-data ${name}: no such file: ${errno.path}\n`);
    return 1;
  }
  const storage = storageFailure(e);
  if (storage) {
    io.stderr.write(`review-data ${name}: ${storage}\n`);
    return 1;
  }
  io.stderr.write(`review-data ${name}: ${(e as Error).stack ?? String(e)}\n`);
  return 1;
}

// better-sqlite3 12 on Node 24: a statement collected while Node tears its environment down aborts the
// process ("Assertion failed: (env) != nullptr" in node::RemoveEnvironmentCleanupHook, from
// Statement::~Statement), after all work is done, with status 134. better-sqlite3 13 fixes it but does
// not load on Node 20, which this release still supports. Leaving through process.exit once the event
// loop is empty skips that teardown; every write has been made by then (stdout and stderr are
// synchronous for files and pipes on POSIX).
process.once('beforeExit', (status) => process.exit(status));

const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
process.exitCode = code;
