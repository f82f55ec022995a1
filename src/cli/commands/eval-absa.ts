import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliCommand, CliIo } from '../command.js';
import { createTaxonomyRegistry } from '../../insights/registry.js';
import { evaluateAbsaJsonl } from '../../insights/eval/evaluate.js';
import { formatAbsaError } from '../../insights/eval/absa-eval.js';

const USAGE = 'review-data eval-absa --data FILE [--taxonomy ID] [--errors]';

function fail(io: CliIo, message: string): number {
  io.stderr.write(`eval-absa: ${message}\nusage: ${USAGE}\n`);
  return 2;
}

/** Scores the insights engine on labelled sentences (insights.md "Measuring accuracy"). */
export const evalAbsaCommand: CliCommand = {
  name: 'eval-absa',
  summary: 'Measure aspect detection and polarity accuracy on labelled JSON Lines',
  usage: USAGE,
  async run(argv, io) {
    let values: { data?: string | undefined; taxonomy?: string | undefined; errors?: boolean | undefined };
    try {
      ({ values } = parseArgs({
        args: argv,
        options: { data: { type: 'string' }, taxonomy: { type: 'string' }, errors: { type: 'boolean' } },
        strict: true,
        allowPositionals: false,
      }));
    } catch (e) {
      return fail(io, (e as Error).message);
    }
    if (!values.data) return fail(io, '--data FILE is required');
    const registry = createTaxonomyRegistry();
    const taxonomyId = values.taxonomy ?? 'home-services';
    const taxonomy = registry.get(taxonomyId);
    if (!taxonomy) return fail(io, `unknown taxonomy "${taxonomyId}" (known: ${[...registry.keys()].join(', ')})`);
    let content: string;
    try {
      content = await readFile(resolve(io.cwd, values.data), 'utf8');
    } catch (e) {
      return fail(io, `cannot read ${values.data}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    let result: ReturnType<typeof evaluateAbsaJsonl>;
    try {
      result = evaluateAbsaJsonl(content, taxonomy);
    } catch (e) {
      return fail(io, `${values.data}: ${(e as Error).message}`);
    }
    if (values.errors) for (const e of result.errors) io.stdout.write(`${formatAbsaError(e)}\n`);
    // The last line is the machine-readable result (insights.md "Measuring accuracy").
    io.stdout.write(`${JSON.stringify(result.scores)}\n`);
    return 0;
  },
};
