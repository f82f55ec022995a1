import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command.js';
import { nearest } from './suggest.js';

/**
 * node:util parseArgs with usage errors the CLI prints nicely instead of stack traces. An unknown
 * option is named with the nearest known one; Node's own message would suggest quoting it after `--`,
 * which is right for a file named `--x` and wrong for a mistyped flag.
 */
export function parseCommandArgs<T extends ParseArgsConfig['options']>(argv: string[], options: T, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = /'(-[^']*)'/.exec(err.message)?.[1] ?? '';
      const name = flag.replace(/^-+/, '').split('=')[0]!;
      const known = Object.keys(options ?? {});
      const guess = nearest(name, known);
      throw new UsageError(`unknown option ${flag}${guess ? ` (did you mean --${guess}?)` : ''}`);
    }
    throw new UsageError(err.message);
  }
}
