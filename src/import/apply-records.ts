import { EMPTY_BUSINESS, type Business } from '../domain/business.js';
import { createMentionMatcher } from '../domain/mentions.js';
import type { IncomingReview } from '../domain/import-plan.js';
import type { ImportInput, ImportSummary, ReviewStore } from '../domain/ports.js';
import type { RawFile } from './raw-records.js';
import { resolveMentions } from './resolve-mentions.js';
import { templateProblems } from './template-values.js';
import { toIncoming, validateFiles, type ImportProblem, type ValidatedImport } from './validate-records.js';

export interface ApplyOptions {
  replace: boolean;
  assumeVerified: boolean;
  /** `source.platform` for records that have none. */
  platform?: string;
  /** The records are a complete listing of a platform (a sync, contract §3.2). */
  platformListing?: ImportInput['platformListing'];
  /** `--strict`: columns and keys that no field takes are problems, not notes. */
  strict?: boolean;
  /** `--allow-unknown-mentions`: a mention that names no catalog entry is dropped with a note, not a problem. */
  allowUnknownMentions?: boolean;
  /** The example business `init` writes: a business that still holds its values is refused. */
  template?: Business;
  /** `--allow-example-values`: the template's values are published with a note instead. */
  allowExampleValues?: boolean;
  demo?: boolean;
  dryRun?: boolean;
  onProgress?: (phase: 'validate' | 'write', done: number, total: number) => void;
}

export type ApplyOutcome =
  | { ok: true; summary: ImportSummary; records: number; business: boolean; warnings: ImportProblem[] }
  | { ok: false; problems: ImportProblem[]; warnings: ImportProblem[] };

/**
 * Validates every record read from files or listed by a platform, resolves mentions against the catalog
 * that will be stored (the files' business, else the stored one), and writes them in one transaction
 * (contract §3: all or nothing; `problems` the caller already found also mean nothing is written). The
 * file import and the platform sync share it, so a review gets the same record either way. `files` is
 * emptied as it is read, so a large import holds one copy of its records at a time.
 */
export async function applyRecords(
  store: ReviewStore,
  files: { name: string; raw: RawFile }[],
  options: ApplyOptions,
  problems: ImportProblem[] = [],
  warnings: ImportProblem[] = [],
): Promise<ApplyOutcome> {
  const validated = validateFiles(files, {
    assumeVerified: options.assumeVerified,
    ...(options.platform ? { platform: options.platform } : {}),
    ...(options.strict ? { strict: true } : {}),
  });
  files.length = 0;
  for (const p of validated.problems) problems.push(p);
  for (const w of validated.warnings) warnings.push(w);
  options.onProgress?.('validate', validated.records.length, validated.records.length);

  const business = await resolveCatalog(store, validated, options, problems, warnings);
  if (problems.length > 0) return { ok: false, problems, warnings };

  const matcher = createMentionMatcher(business);
  const reviews = validated.records.map((r) => toIncoming(r.review, matcher));
  validated.records.length = 0;
  const summary = await store.applyImport(importInput(validated.business, reviews, options), (done, total) =>
    options.onProgress?.('write', done, total),
  );
  return { ok: true, summary, records: reviews.length, business: validated.business !== undefined, warnings };
}

/**
 * Mentions are matched against the catalog that will be stored: the file's, else the stored one, which
 * is returned. Their problems and notes, and the example values `init` wrote (problems or notes), join the import's.
 */
async function resolveCatalog(
  store: ReviewStore,
  validated: ValidatedImport,
  options: ApplyOptions,
  problems: ImportProblem[],
  warnings: ImportProblem[],
): Promise<Business> {
  const stored = validated.business ? null : await store.business();
  const business = validated.business ?? stored ?? EMPTY_BUSINESS;
  const mentions = resolveMentions(validated.records, business, {
    catalog: validated.business ? 'file' : stored ? 'stored' : 'none',
    ...(options.allowUnknownMentions ? { allowUnknown: true } : {}),
  });
  for (const p of mentions.problems) problems.push(p);
  for (const w of mentions.warnings) warnings.push(w);
  if (validated.business && options.template && !options.demo) {
    const allowed = options.allowExampleValues === true;
    const file = validated.businessFile ?? 'business';
    const found = templateProblems(validated.business, options.template, await store.business(), file, allowed);
    problems.push(...found.problems);
    warnings.push(...found.notes);
  }
  return business;
}

/** What the store writes in one transaction; the demo's business is stamped as the demo's. */
function importInput(business: Business | undefined, reviews: IncomingReview[], options: ApplyOptions): ImportInput {
  const stamped = business && options.demo ? { ...business, demo: true as const } : business;
  return {
    ...(stamped ? { business: stamped } : {}),
    reviews,
    replace: options.replace,
    ...(options.platformListing ? { platformListing: options.platformListing } : {}),
    ...(options.demo ? { demo: true } : {}),
    ...(options.dryRun ? { dryRun: true } : {}),
  };
}
