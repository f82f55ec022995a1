import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command.js';

/** node:util parseArgs with usage errors the CLI prints nicely instead of stack traces. */
export function parseCommandArgs<T extends ParseArgsConfig['options']>(argv: string[], options: T, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
