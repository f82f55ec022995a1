import { EMPTY_BUSINESS } from '../domain/business.js';
import { createMentionMatcher } from '../domain/mentions.js';
import type { ImportInput, ImportSummary, ReviewStore } from '../domain/ports.js';
import type { RawFile } from './raw-records.js';
import { toIncoming, validateFiles, type ImportProblem } from './validate-records.js';

export interface ApplyOptions {
  replace: boolean;
  assumeVerified: boolean;
  /** `source.platform` for records that have none. */
  platform?: string;
  /** The records are a complete listing of a platform (a sync, contract §3.2). */
  platformListing?: ImportInput['platformListing'];
  demo?: boolean;
  dryRun?: boolean;
  onProgress?: (phase: 'validate' | 'write', done: number, total: number) => void;
}

export type ApplyOutcome =
  { ok: true; summary: ImportSummary; records: number; business: boolean } | { ok: false; problems: ImportProblem[] };

/**
 * Validates every record read from files or listed by a platform, matches mentions against the catalog
 * that will be stored (the files' business, else the stored one), and writes them in one transaction
 * (contract §3: all or nothing; `problems` already found by the caller also mean nothing is written).
 * The file import and the platform sync share it, so a review gets the same record either way.
 */
export async function applyRecords(
  store: ReviewStore,
  files: { name: string; raw: RawFile }[],
  options: ApplyOptions,
  problems: ImportProblem[] = [],
): Promise<ApplyOutcome> {
  const validated = validateFiles(files, {
    assumeVerified: options.assumeVerified,
    ...(options.platform ? { platform: options.platform } : {}),
  });
  const all = [...problems, ...validated.problems];
  options.onProgress?.('validate', validated.records.length, validated.records.length);
  if (all.length > 0) return { ok: false, problems: all };

  const business = validated.business ?? (await store.business()) ?? EMPTY_BUSINESS;
  const matcher = createMentionMatcher(business);
  const reviews = validated.records.map((r) => toIncoming(r.review, matcher));
  const summary = await store.applyImport(
    {
      ...(validated.business ? { business: validated.business } : {}),
      reviews,
      replace: options.replace,
      ...(options.platformListing ? { platformListing: options.platformListing } : {}),
      ...(options.demo ? { demo: true } : {}),
      ...(options.dryRun ? { dryRun: true } : {}),
    },
    (done, total) => options.onProgress?.('write', done, total),
  );
  return { ok: true, summary, records: reviews.length, business: validated.business !== undefined };
}
