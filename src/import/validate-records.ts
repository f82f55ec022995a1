import { ImportBusinessSchema, type Business } from '../domain/business.js';
import type { IncomingReview } from '../domain/import-plan.js';
import { ImportReviewSchema, type ImportReview } from '../domain/import-record.js';
import { toIssues } from '../domain/errors.js';
import type { MentionMatcher } from '../domain/mentions.js';
import type { z } from 'zod';
import type { RawFile, RawProblem, RawRecord } from './raw-records.js';

export interface ImportProblem {
  file: string;
  record: number;
  line?: number;
  column?: number;
  id?: string;
  path: string;
  message: string;
}

export function formatProblem(p: ImportProblem): string {
  const where =
    p.line !== undefined
      ? `line ${p.line}${p.column !== undefined ? `, column ${p.column}` : ''}`
      : p.record > 0
        ? `record ${p.record}`
        : 'file';
  const id = p.id ? ` (id ${p.id})` : '';
  // Messages name their field already ("rating: Too big …", "author.name is required").
  const path = p.path && !p.message.includes(p.path) ? `${p.path}: ` : '';
  return `${p.file}: ${where}${id}: ${path}${p.message}`;
}

export interface ValidatedImport {
  business?: Business;
  /** The file the business came from, for problems about it. */
  businessFile?: string;
  records: { review: ImportReview; file: string; record: number; line?: number }[];
  problems: ImportProblem[];
  /** Columns and keys no field takes: listed, ignored, and problems with `--strict`. */
  warnings: ImportProblem[];
}

/** The value at a dotted path of a raw record, for messages that show what the file said. */
function valueAt(value: unknown, path: (string | number)[]): unknown {
  let node = value;
  for (const key of path) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** ` (got "five")`: the value itself, short, when it is a scalar the message does not show already. */
function shown(value: unknown, message: string): string {
  if (value === undefined || (value !== null && typeof value === 'object')) return '';
  const text = JSON.stringify(value);
  if (message.includes(text)) return '';
  return ` (got ${text.length > 60 ? `${text.slice(0, 57)}..."` : text})`;
}

/** `--platform`: sets `source.platform` of a record that has none (contract §3.1). */
function withPlatform(value: unknown, platform: string | undefined): unknown {
  if (!platform || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  const v = value as { source?: unknown };
  const source = v.source && typeof v.source === 'object' ? (v.source as { platform?: unknown }) : undefined;
  if (source?.platform !== undefined && source.platform !== null) return value;
  return { ...v, source: { ...(source ?? {}), platform } };
}

interface ValidateOptions {
  assumeVerified: boolean;
  platform?: string;
  strict?: boolean;
}

/** What validation has found so far, across files: ids are unique across all of them. */
interface Tally {
  out: ValidatedImport;
  /** Each id seen, with where it was first seen. */
  seen: Map<string, string>;
}

/** Validates every record of every file and lists every problem (contract §3: all or nothing). */
export function validateFiles(files: { name: string; raw: RawFile }[], options: ValidateOptions): ValidatedImport {
  const tally: Tally = { out: { records: [], problems: [], warnings: [] }, seen: new Map() };
  const { out } = tally;
  for (const { name, raw } of files) {
    for (const p of raw.problems) out.problems.push(fromRaw(name, p));
    for (const p of raw.warnings ?? []) (options.strict ? out.problems : out.warnings).push(fromRaw(name, p));
    if (raw.business !== undefined) validateBusiness(name, raw, out);
    const unverified: string[] = [];
    for (const r of raw.records) {
      const value = withPlatform(r.value, options.platform);
      // The `verified` decision is asked for even when other fields are wrong, so it never shows up
      // only after everything else was fixed.
      if (lacksVerified(r, value, options.assumeVerified)) unverified.push(lineOrRecord(r));
      validateRecord(name, r, value, tally);
    }
    if (unverified.length > 0) out.problems.push(unverifiedProblem(name, unverified, raw.records.length));
  }
  return out;
}

function fromRaw(file: string, p: RawProblem): ImportProblem {
  return {
    file,
    record: p.record,
    ...(p.line !== undefined ? { line: p.line } : {}),
    ...(p.column !== undefined ? { column: p.column } : {}),
    ...(p.id !== undefined ? { id: p.id } : {}),
    path: p.path ?? '',
    message: p.message,
  };
}

/** The file's business, or its problems unless the reader listed some already. */
function validateBusiness(file: string, raw: RawFile, out: ValidatedImport): void {
  const b = ImportBusinessSchema.safeParse(raw.business);
  if (b.success) {
    out.business = b.data;
    out.businessFile = file;
  } else if (!raw.problems.some((p) => p.path?.startsWith('business')))
    for (const i of toIssues(b.error, ['business'])) out.problems.push({ file, record: 0, path: i.path.join('.'), message: i.message });
}

/** A record's own field, when the record is an object. */
function fieldOf(value: unknown, key: string): unknown {
  return value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

function lineOrRecord(r: RawRecord): string {
  return r.line !== undefined ? `line ${r.line}` : `record ${r.record}`;
}

/** A record that will be read and says nothing of `verified`, when the import does not assume it. */
function lacksVerified(r: RawRecord, value: unknown, assumeVerified: boolean): boolean {
  const skip = r.skip ?? [];
  if (skip.includes('(record)') || skip.includes('verified') || assumeVerified) return false;
  return fieldOf(value, 'verified') === undefined;
}

/** One record (its value with `--platform` applied): its schema problems, a duplicate id, or a review to import. */
function validateRecord(file: string, r: RawRecord, value: unknown, { out, seen }: Tally): void {
  const skip = r.skip ?? [];
  if (skip.includes('(record)')) return;
  const where = { file, record: r.record, ...(r.line !== undefined ? { line: r.line } : {}) };
  const parsed = ImportReviewSchema.safeParse(value);
  if (!parsed.success) {
    const id = fieldOf(value, 'id');
    out.problems.push(...schemaProblems(parsed.error, value, skip, { ...where, ...(typeof id === 'string' ? { id } : {}) }));
    return;
  }
  if (skip.length > 0) return;
  const review = parsed.data;
  const dup = seen.get(review.id);
  if (dup) {
    out.problems.push({
      ...where,
      id: review.id,
      path: 'id',
      message: `duplicate id, first seen at ${dup}${r.derivedId ? ' (derived from platform, author, date and text: the same review twice?)' : ''}`,
    });
    return;
  }
  seen.set(review.id, `${file} ${lineOrRecord(r)}`);
  out.records.push({ review, ...where });
}

/** The schema's issues with a record, but those the reader has listed already. */
function schemaProblems(
  error: z.ZodError,
  value: unknown,
  skip: readonly string[],
  where: Omit<ImportProblem, 'path' | 'message'>,
): ImportProblem[] {
  const problems: ImportProblem[] = [];
  for (const i of toIssues(error)) {
    const path = i.path.join('.');
    // Already listed by the reader: the field itself, inside it, or the object that would hold it.
    if (skip.some((s) => path === s || path.startsWith(`${s}.`) || s.startsWith(`${path}.`))) continue;
    problems.push({ ...where, path: path || '(record)', message: i.message + shown(valueAt(value, i.path), i.message) });
  }
  return problems;
}

/** One problem for the file's records that do not say whether they are verified. */
function unverifiedProblem(file: string, unverified: string[], records: number): ImportProblem {
  const which =
    unverified.length === records
      ? `none of the ${unverified.length} record(s) says`
      : `${unverified.length} record(s) (${unverified.slice(0, 5).join(', ')}${unverified.length > 5 ? ', ...' : ''}) do not say`;
  return {
    file,
    record: 0,
    path: 'verified',
    message: `verified: ${which} whether the review is verified; add a verified column or field (yes/no), or pass --assume-verified when every review comes from a platform or customer you verified`,
  };
}

/**
 * The stored form of an import record. Its mention tags are kept as given (contract §2: the ids a record
 * lists are mentions, whatever the catalog later says); the ones the text also yields with this catalog
 * are named in `derived_tags`, which the content hash leaves out, so an export (whose `mentions` include
 * the derived ones) imports back unchanged.
 */
export function toIncoming(r: ImportReview, matcher: MentionMatcher): IncomingReview {
  const title = r.title ?? null;
  const text = r.text;
  const derived = matcher.resolve(title, text, { technicians: [], services: [], service_areas: [] });
  const unique = (given: string[] | undefined) => [...new Set(given ?? [])];
  const found = (given: string[] | undefined, yielded: { id: string }[]) => unique(given).filter((id) => yielded.some((f) => f.id === id));
  return {
    id: r.id,
    date: r.date,
    rating: r.rating,
    title,
    text,
    language: r.language ?? null,
    author: { name: r.author.name, location: r.author.location ?? null },
    source: { platform: r.source.platform, url: r.source.url ?? null },
    verified: r.verified ?? true,
    hidden: r.hidden,
    mention_tags: {
      technicians: unique(r.mentions?.technicians),
      services: unique(r.mentions?.services),
      service_areas: unique(r.mentions?.service_areas),
    },
    derived_tags: {
      technicians: found(r.mentions?.technicians, derived.technicians),
      services: found(r.mentions?.services, derived.services),
      service_areas: found(r.mentions?.service_areas, derived.service_areas),
    },
    response: r.response ? { text: r.response.text, date: r.response.date ?? null } : null,
    ...(r.updated_at ? { updated_at: r.updated_at } : {}),
  };
}
