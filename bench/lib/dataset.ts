/**
 * Large seeded datasets for benchmarks: N reviews as an import dataset document (the format `review-data
 * import` reads), built from the demo generator's catalog and sentence style. Each block of 600 reviews is
 * one `generateDemo` run with its own seed; ids get the block number so they stay unique. Deterministic:
 * the same N gives the same file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_SEED, generateDemo, type DemoDataset, type DemoReview } from '../../scripts/generate-demo.js';

export function generateLargeDataset(count: number, seed = DEMO_SEED): DemoDataset {
  const reviews: DemoReview[] = [];
  let business: DemoDataset['business'] | undefined;
  for (let block = 0; reviews.length < count; block++) {
    const demo = generateDemo(seed + block);
    business ??= demo.business;
    for (const r of demo.reviews) {
      if (reviews.length >= count) break;
      reviews.push({ ...r, id: `b${String(block).padStart(4, '0')}-${r.id}` });
    }
  }
  return { business: business ?? generateDemo(seed).business, reviews };
}

export interface TempDir {
  path: string;
  remove(): void;
}

export function createTempDir(prefix = 'rds-bench-'): TempDir {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { path: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes the dataset of `count` reviews to `<dir>/dataset-<count>.json` and returns the file. */
export function writeLargeDataset(dir: string, count: number): string {
  const file = path.join(dir, `dataset-${count}.json`);
  writeFileSync(file, JSON.stringify(generateLargeDataset(count)));
  return file;
}
