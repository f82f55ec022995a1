import fs from 'node:fs/promises';
import path from 'node:path';
import { EMPTY_BUSINESS } from '../domain/business.js';
import { createMentionMatcher } from '../domain/mentions.js';
import type { ImportSummary, ReviewStore } from '../domain/ports.js';
import { formatOf, readRecords, type ImportFormat, type RawFile } from './raw-records.js';
import { toIncoming, validateFiles, type ImportProblem } from './validate-records.js';

export interface ImportOptions {
  files: string[];
  format?: ImportFormat;
  replace: boolean;
  assumeVerified: boolean;
  /** Called as records are read and validated, then as they are written. */
  onProgress?: (phase: 'validate' | 'write', done: number, total: number) => void;
}

export type ImportOutcome = { ok: true; summary: ImportSummary; records: number } | { ok: false; problems: ImportProblem[] };

/**
 * The import use case (contract §3): read every file, validate every record, and only when all are
 * valid write them in one transaction. Any problem means nothing is written.
 */
export async function importFiles(store: ReviewStore, options: ImportOptions): Promise<ImportOutcome> {
  const files: { name: string; raw: RawFile }[] = [];
  const problems: ImportProblem[] = [];
  for (const file of options.files) {
    const name = path.basename(file);
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (e) {
      problems.push({
        file: name,
        record: 0,
        path: '',
        message: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      });
      continue;
    }
    try {
      files.push({ name, raw: readRecords(text, formatOf(file, options.format)) });
    } catch (e) {
      problems.push({ file: name, record: 0, path: '', message: (e as Error).message });
    }
  }
  const validated = validateFiles(files, { assumeVerified: options.assumeVerified });
  problems.push(...validated.problems);
  options.onProgress?.('validate', validated.records.length, validated.records.length);
  if (problems.length > 0) return { ok: false, problems };

  // Mentions are matched against the catalog that will be stored: the file's, else the stored one.
  const business = validated.business ?? (await store.business()) ?? EMPTY_BUSINESS;
  const matcher = createMentionMatcher(business);
  const reviews = validated.records.map((r) => toIncoming(r.review, matcher));
  const summary = await store.applyImport(
    { ...(validated.business ? { business: validated.business } : {}), reviews, replace: options.replace },
    (done, total) => options.onProgress?.('write', done, total),
  );
  return { ok: true, summary, records: reviews.length };
}
