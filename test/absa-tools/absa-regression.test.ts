import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { evalAbsaCommand } from '../../src/cli/commands/eval-absa.js';
import { readFileSync } from 'node:fs';
import { createTaxonomyRegistry } from '../../src/insights/registry.js';
import { parseLabelledJsonl, type AbsaScores } from '../../src/absa-tools/absa-eval.js';
import { crossValidateAbsa } from './cross-validate.js';

// The labelled data lives beside the repository (shared/data/absa), never inside it: the SemEval files
// may not be shipped (their README).
const repoRoot = new URL('../../', import.meta.url);
const dataDir = fileURLToPath(new URL('../shared/data/absa/', repoRoot));
const present = existsSync(dataDir);
if (!present && process.env.CI === 'true') throw new Error(`labelled data missing at ${dataDir} (required in CI)`);
if (!present) console.warn(`skipping ABSA regression: no labelled data at ${dataDir}`);

async function evalAbsa(file: string, taxonomy: string, extra: string[] = []): Promise<AbsaScores> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await evalAbsaCommand.run(['--data', file.startsWith('/') ? file : `${dataDir}${file}`, '--taxonomy', taxonomy, ...extra], {
    stdout,
    stderr: new PassThrough(),
    env: {},
    cwd: process.cwd(),
  });
  expect(code).toBe(0);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as AbsaScores;
}

/**
 * Targets (detection F1 / polarity accuracy): home-services dev ≥ 90 / 90 with the shipped model;
 * frozen sets ≥ 85 / 85 (the first-pass figures in docs/insights.md: where a set misses the target, its
 * assertion is a ratchet at the first-pass level, never lowered); the real dev set (evaluation only)
 * ≥ 85 / 88, a ratchet at the level reached until then. SemEval-2014 restaurants: the cue rules (which
 * still judge that taxonomy) keep a ratchet on train; the learned method is trained on train and scored
 * on test, the literature's protocol, and kept at the level it reached.
 */
const frozenDir = fileURLToPath(new URL('data/absa/frozen/', repoRoot));
const FROZEN: Record<string, { sentences: number; f1: number; polarity: number }> = {
  'fresh-1.jsonl': { sentences: 200, f1: 0.85, polarity: 0.85 },
  'fresh-2.jsonl': { sentences: 200, f1: 0.79, polarity: 0.85 },
  'fresh-3.jsonl': { sentences: 200, f1: 0.83, polarity: 0.85 },
  'fresh-4.jsonl': { sentences: 200, f1: 0.8, polarity: 0.85 },
  'fresh-5.jsonl': { sentences: 200, f1: 0.85, polarity: 0.85 },
  'fresh-6.jsonl': { sentences: 200, f1: 0.85, polarity: 0.85 },
  // Whole reviews, with their rating. f3 and f4's first pass: 83.7 / 93.9 and 77.4 / 94.2. (f1 and f2
  // were scored the same way, then joined the training corpus.)
  'f3-site.jsonl': { sentences: 548, f1: 0.83, polarity: 0.85 },
  'f4-company.jsonl': { sentences: 533, f1: 0.77, polarity: 0.85 },
};

describe('ABSA accuracy on the frozen home-services sets (shipped model)', () => {
  for (const [file, floor] of Object.entries(FROZEN)) {
    it(`${file}: detection F1 ≥ ${floor.f1}, polarity accuracy ≥ ${floor.polarity}`, async () => {
      const s = await evalAbsa(`${frozenDir}${file}`, 'home-services');
      expect(s.sentences).toBe(floor.sentences);
      expect(s.detection.f1).toBeGreaterThanOrEqual(floor.f1);
      expect(s.polarity.accuracy).toBeGreaterThanOrEqual(floor.polarity);
    });
  }
});

describe.skipIf(!present)('ABSA accuracy regression', () => {
  it('home-services dev set with the shipped model: detection F1 ≥ 0.90, polarity accuracy ≥ 0.90', async () => {
    const s = await evalAbsa('home-services-dev.jsonl', 'home-services');
    expect(s.sentences).toBe(300);
    expect(s.detection.f1).toBeGreaterThanOrEqual(0.9);
    expect(s.polarity.accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('the real dev set, each sentence in its review: ratchet at the level reached (target 85 / 88)', async () => {
    const s = await evalAbsa('real-yelp-dev.jsonl', 'home-services');
    expect(s.sentences).toBe(352);
    expect(s.detection.f1).toBeGreaterThanOrEqual(RATCHET.realDev.f1);
    expect(s.polarity.accuracy).toBeGreaterThanOrEqual(RATCHET.realDev.polarity);
    // What the report counts is right more often than every detection is.
    expect(s.reported.right).toBeGreaterThanOrEqual(RATCHET.realDev.reportedRight);
  });

  it('SemEval-2014 restaurants train: ratchet at the level reached (target 85 / 83 is on test)', async () => {
    const s = await evalAbsa('semeval2014-restaurants-train.jsonl', 'restaurants', ['--rules']);
    expect(s.sentences).toBe(3044);
    expect(s.detection.f1).toBeGreaterThanOrEqual(RATCHET.semevalTrain.f1);
    expect(s.polarity.accuracy).toBeGreaterThanOrEqual(RATCHET.semevalTrain.polarity);
  }, 60_000);

  it('SemEval-2014 restaurants: trained on train in memory, scored on test (target 85 / 83)', async () => {
    const s = await evalAbsa('semeval2014-restaurants-test.jsonl', 'restaurants', [
      '--train',
      `${dataDir}semeval2014-restaurants-train.jsonl`,
    ]);
    expect(s.sentences).toBe(800);
    expect(s.detection.f1).toBeGreaterThanOrEqual(0.85);
    // Missed target (83): a ratchet at the level reached (docs/insights.md says why).
    expect(s.polarity.accuracy).toBeGreaterThanOrEqual(RATCHET.semevalLearnedTest.polarity);
  }, 180_000);

  it('SemEval-2014 restaurants train, 5-fold cross-validation: folds agree with each other', () => {
    const data = parseLabelledJsonl(readFileSync(`${dataDir}semeval2014-restaurants-train.jsonl`, 'utf8'));
    const taxonomy = createTaxonomyRegistry().get('restaurants');
    if (!taxonomy) throw new Error('restaurants taxonomy missing');
    const cv = crossValidateAbsa(data, taxonomy, 5);
    expect(cv.mean.f1).toBeGreaterThanOrEqual(RATCHET.semevalTrain.f1);
    expect(cv.mean.polarity).toBeGreaterThanOrEqual(RATCHET.semevalTrain.polarity);
    // Rules fitted to particular sentences would show as folds far from the mean.
    expect(cv.spread.f1).toBeLessThan(0.03);
    expect(cv.spread.polarity).toBeLessThan(0.03);
  }, 60_000);
});

const RATCHET = {
  semevalTrain: { f1: 0.825, polarity: 0.72 },
  semevalLearnedTest: { polarity: 0.775 },
  // 71.1 / 91.3 before the corpus took f1, f2, t7 and t8 (2,006 sentences): 70.3 / 90.6 after, within
  // two or three labels of it, while every held-out written set rose (docs/insights.md). The choice was
  // made on those sets, never on this one.
  realDev: { f1: 0.7, polarity: 0.9, reportedRight: 0.85 },
};
