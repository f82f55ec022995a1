#!/usr/bin/env node
import { ConfigError } from '../config.js';
import { evalAbsaCommand } from './commands/eval-absa.js';
import { exportCommand } from './commands/export.js';
import { importCommand } from './commands/import.js';
import { serveCommand } from './commands/serve.js';
import { subscriptionsCommand } from './commands/subscriptions.js';
import { UsageError, type CliCommand, type CliIo } from './command.js';

const COMMANDS: CliCommand[] = [serveCommand, importCommand, exportCommand, evalAbsaCommand, subscriptionsCommand];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: review-data <command> [options]',
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'review-data <command> --help' for a command's options.",
  ].join('\n');
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(help() + '\n');
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`review-data: unknown command '${name}'\n\n${help()}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`usage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`review-data ${name}: ${e.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    if (e instanceof ConfigError) {
      io.stderr.write(`review-data ${name}: ${e.message}\n`);
      return 2;
    }
    io.stderr.write(`review-data ${name}: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
}

const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
process.exitCode = code;
