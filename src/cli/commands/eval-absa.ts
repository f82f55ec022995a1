import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliCommand, CliIo } from '../command.js';
import { readLabelled } from '../../absa-tools/labelled-data.js';
import { readModelFile, readShippedModels } from '../../absa-models.js';
import { compileTaxonomy } from '../../insights/analysis/compiled-taxonomy.js';
import { createTaxonomyRegistry, taxonomyLineage } from '../../insights/registry.js';
import { evaluateAbsaJsonl } from '../../absa-tools/evaluate.js';
import { formatAbsaError } from '../../absa-tools/absa-eval.js';
import { loadAbsaModel, type AbsaModel } from '../../insights/model/absa-model.js';
import { modelFileFor } from '../../insights/model/model-file.js';
import { buildEmbeddingTableFor, embeddingsPath } from '../../absa-tools/embedding-source.js';
import { trainAbsaModel } from '../../absa-tools/train.js';
import type { Taxonomy } from '../../insights/taxonomy.js';

const USAGE = 'review-data eval-absa --data FILE [--taxonomy ID] [--model FILE | --train FILE... | --rules] [--errors]';

function fail(io: CliIo, message: string): number {
  io.stderr.write(`eval-absa: ${message}\nusage: ${USAGE}\n`);
  return 2;
}

interface Options {
  data?: string;
  taxonomy?: string;
  model?: string;
  train?: string[];
  rules?: boolean;
  errors?: boolean;
}

/**
 * The model to score: a model file (--model), one trained in memory on --train (the literature's
 * train/test protocol, so nothing trained on SemEval is ever written), the cue rules alone (--rules),
 * or by default what the service itself uses for the taxonomy.
 */
async function chooseModel(values: Options, taxonomy: Taxonomy, io: CliIo): Promise<AbsaModel | undefined> {
  if (values.rules) return undefined;
  if (values.model) return loadAbsaModel(readModelFile(resolve(io.cwd, values.model)));
  if (values.train?.length) {
    const { data, files } = await readLabelled(io.cwd, values.train);
    const path = embeddingsPath(import.meta.url);
    let embeddings;
    if (path)
      embeddings = await buildEmbeddingTableFor(
        path,
        data.map((s) => s.text),
      );
    io.stderr.write(
      `eval-absa: trained in memory on ${data.length} sentences${path ? '' : ' (no word vectors: the embeddings package is not installed)'}\n`,
    );
    return loadAbsaModel(trainAbsaModel(data, { compiled: compileTaxonomy(taxonomy), name: 'in-memory', seed: 1, files, embeddings }));
  }
  const file = modelFileFor(readShippedModels(), taxonomyLineage().get(taxonomy.id) ?? [taxonomy.id]);
  return file ? loadAbsaModel(file) : undefined;
}

/** Scores the insights engine on labelled sentences (insights.md "Measuring accuracy"). */
export const evalAbsaCommand: CliCommand = {
  name: 'eval-absa',
  summary: 'Measure aspect detection and polarity accuracy on labelled JSON Lines',
  usage: USAGE,
  async run(argv, io) {
    let values: Options;
    try {
      ({ values } = parseArgs({
        args: argv,
        options: {
          data: { type: 'string' },
          taxonomy: { type: 'string' },
          model: { type: 'string' },
          train: { type: 'string', multiple: true },
          rules: { type: 'boolean' },
          errors: { type: 'boolean' },
        },
        strict: true,
        allowPositionals: false,
      }));
    } catch (e) {
      return fail(io, (e as Error).message);
    }
    if (!values.data) return fail(io, '--data FILE is required');
    if ([values.model, values.train?.length, values.rules].filter(Boolean).length > 1)
      return fail(io, 'choose one of --model, --train and --rules');
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
    let model: AbsaModel | undefined;
    try {
      model = await chooseModel(values, taxonomy, io);
    } catch (e) {
      return fail(io, (e as Error).message);
    }
    if (model && !modelFileFor([model], taxonomyLineage().get(taxonomyId) ?? [taxonomyId]))
      return fail(io, `the model is for taxonomy ${model.taxonomy}, not ${taxonomyId}`);
    let result: ReturnType<typeof evaluateAbsaJsonl>;
    try {
      result = evaluateAbsaJsonl(content, taxonomy, model);
    } catch (e) {
      return fail(io, `${values.data}: ${(e as Error).message}`);
    }
    if (values.errors) for (const e of result.errors) io.stdout.write(`${formatAbsaError(e)}\n`);
    io.stderr.write(`eval-absa: ${model ? `model ${model.name} ${model.version}` : 'cue rules'}\n`);
    // The last line is the machine-readable result (insights.md "Measuring accuracy").
    io.stdout.write(`${JSON.stringify(result.scores)}\n`);
    return 0;
  },
};
